/**
 * Buying a label without ever buying two (the purchase; settling an unclear outcome is ./settle.server.ts).
 *
 *  1. A custom_reference is allocated and a PurchaseAttempt is written BEFORE the call. The attempt holds the
 *     order's label slot (`<shop>|<order>|<labelIndex>`, unique), so a double click, a second tab or a concurrent
 *     job finds the slot taken and never reaches the label service.
 *  2. The service is called once. No retry.
 *  3. CREATED: the label is stored. REJECTED (nothing charged): the slot is released so the merchant can fix the
 *     data and try again. UNKNOWN (timeout, lost connection, 5xx): the slot stays held and the attempt is settled
 *     by ./settle.server.ts (looked up in the service's list, with backoff; reviewed; released).
 *  Timings come from the configuration (RECONCILE_*, LABEL_LOOKUP_MAX_PAGES; app/config.server.ts).
 */
import { reconcileTimings, type ReconcileTimings } from "../config.server";
import type { PrismaClient, Label, PurchaseAttempt } from "../generated/prisma/client";
import type { LabelRequest } from "../label-service/contract";
import type { LabelEnvironment } from "./accounts.server";
import { ATTEMPT } from "./status";
import { allocateCustomReference, referenceDay } from "./references.server";
import { sealRequest } from "../privacy/snapshot-seal.server";
import { accountsLike, attemptById, attemptInSlot, insertAttempt, insertLabelForAttempt, isUniqueViolation, labelById } from "./label-rows.server";

/** What the purchase layer needs from the label-service client. */
export interface LabelServicePort {
  generateLabel(request: LabelRequest): Promise<GenerateOutcome>;
  /** Reads the service's list, newest first, back to `since` (see LabelLookup). */
  lookUpLabelByReference(customReference: string, params: { since: Date }): Promise<LabelLookup>;
  /** Optional: lets the merchant attach a label found in the service's list by its id. */
  lookUpLabelById?(id: string, params: { since: Date }): Promise<LabelLookup>;
  /**
   * Optional: waits for the purchase's turn at the service (a bulk item shares the account's concurrency with every
   * item of every instance). The purchase takes its turn before it records its attempt, so an attempt's time is the
   * time of its call: an attempt waiting for a turn would otherwise look stale to reconciliation, and its late-charge
   * window would start before the call went out. The turn's `generateLabel` sends at once; `release` hands the turn
   * back (after the call, or when the purchase stops before it) and may be called more than once.
   */
  reserveGenerate?(): Promise<GenerateTurn>;
}

export interface GenerateTurn {
  generateLabel(request: LabelRequest): Promise<GenerateOutcome>;
  release(): Promise<void>;
}

/**
 * A lookup's outcome. `absent` only when the list was read back past `since` (or to its end) and nothing in that span
 * could be the label; a page cap or a label listed without a reference makes it `incomplete`.
 */
export type LabelLookup =
  | { status: "found"; label: RemoteLabel }
  | { status: "absent" }
  | { status: "incomplete"; reason: "page_cap" | "unreferenced"; pagesRead?: number };

export type GenerateOutcome =
  | { status: "created"; label: { id: string; reference: string; label_url: string; tracking_url: string } }
  | { status: "rejected"; error: OutcomeError }
  | { status: "unknown"; error: OutcomeError };

export interface OutcomeError {
  message: string;
  /** The same in French, when known (stored with the attempt for the merchant's language). */
  messageFr?: string;
  httpStatus?: number;
  kind?: string;
  body?: string;
}

/** A label as listed by the service. Only id and tracking reference are required to adopt it. */
export interface RemoteLabel {
  id: string;
  reference?: string;
  label_url?: string;
  tracking_url?: string;
  custom_reference?: string;
}

/**
 * A lookup reads back to the attempt's creation minus this margin, so a label stamped by a service whose clock runs
 * behind ours is still read.
 */
export const LOOKUP_CLOCK_MARGIN_MS = 15 * 60_000;

export interface PurchaseInput {
  shop: string;
  environment: LabelEnvironment;
  orderId: string;
  orderName: string;
  /** The fulfillment order this parcel ships; fulfilled in Shopify once the label exists. */
  fulfillmentOrderId?: string;
  /** 1 for the order's label; higher only when the merchant explicitly asks for an additional label. */
  labelIndex?: number;
  /** The location whose parcel this is, for an order labelled per location (decision 0115): part of the slot. */
  location?: string;
  /** Builds the request once the reference is known (the mapper takes the reference as input). */
  buildRequest: (customReference: string) => LabelRequest;
  /**
   * The caller found this very slot empty a moment ago (labelOrder reads it before mapping the order), so the early
   * read here is skipped. Only a saving: the slot's unique index is what guarantees one purchase, and a purchase that
   * meets a slot taken meanwhile reports its holder as the early read would have, after taking its turn for the
   * service (a bulk item may wait for a free slot of the account) and drawing a reference it then leaves unused.
   */
  slotSeenFree?: boolean;
}

export type PurchaseResult =
  | { status: "created"; label: Label }
  | { status: "rejected"; attempt: PurchaseAttempt; error: OutcomeError }
  | { status: "unknown"; attempt: PurchaseAttempt; error: OutcomeError }
  | { status: "already_labelled"; label: Label }
  | { status: "in_progress"; attempt: PurchaseAttempt };

export interface PurchaseDeps {
  db: PrismaClient;
  service: LabelServicePort;
  now?: () => Date;
  /** Defaults to the process configuration (reconcileTimings()). */
  timings?: ReconcileTimings;
}

/**
 * The order's label slot. An order shipping from several locations has one slot per location (`…|<index>|<Location
 * GID>`, decision 0115); every other order keeps `<shop>|<order>|<index>`.
 */
export function orderSlot(shop: string, orderId: string, labelIndex: number, location?: string): string {
  return location ? `${shop}|${orderId}|${labelIndex}|${location}` : `${shop}|${orderId}|${labelIndex}`;
}

/** What an attempt holding a slot means: its label, or a purchase still in flight. */
export async function heldBy(db: PrismaClient, attempt: PurchaseAttempt): Promise<PurchaseResult> {
  const label = attempt.labelId ? await labelById(db, attempt.labelId) : null;
  return label ? { status: "already_labelled", label } : { status: "in_progress", attempt };
}

async function holderOf(db: PrismaClient, slot: string, shop: string): Promise<PurchaseResult | null> {
  const attempt = await attemptInSlot(db, slot, shop);
  return attempt ? heldBy(db, attempt) : null;
}

async function existingHolder(db: PrismaClient, slot: string, shop: string): Promise<PurchaseResult> {
  const holder = await holderOf(db, slot, shop);
  if (!holder) throw new Error(`label slot ${slot} is taken but its attempt is gone`);
  return holder;
}

/**
 * The service answered that it did not process the call (503 Service Unavailable): nothing can be charged later, so
 * the lookups right after the answer may prove absence. Any other unknown outcome (no answer, a reset, a gateway
 * 502/504, a 500, a malformed answer) may still be processed and charged late (decision 0061).
 */
export function answeredUnprocessed(error: Pick<OutcomeError, "httpStatus">): boolean {
  return error.httpStatus === 503;
}

/** Until when a purchase that got no clear answer may still be charged: lookups before then prove nothing. */
export function lateChargeHorizon(sentAt: Date, timings: Pick<ReconcileTimings, "lateChargeWindowMs">): Date {
  return new Date(sentAt.getTime() + timings.lateChargeWindowMs);
}

/** How far back a lookup for this attempt reads the service's list. */
export function lookupSince(attempt: Pick<PurchaseAttempt, "createdAt">): Date {
  return new Date(attempt.createdAt.getTime() - LOOKUP_CLOCK_MARGIN_MS);
}

/**
 * Other shops of this app that saved the same label-service account (same e-mail) for this environment. Their
 * per-shop reference counters could hand out the same custom_reference on the one account the service sees.
 */
export async function shopsSharingAccount(db: PrismaClient, shop: string, environment: string): Promise<string[]> {
  const { own, others } = await accountsLike(db, shop, environment);
  if (own === null) return [];
  return others.filter((row) => row.email.toLowerCase() === own.toLowerCase()).map((row) => row.shop);
}

/**
 * The shop's next reference, never one that a shop sharing the account already used on the service: on a clash the
 * shop's counter jumps past the highest counter those shops used that day.
 */
async function allocateUnsharedReference(db: PrismaClient, shop: string, environment: string, now: Date): Promise<string> {
  const sharing = await shopsSharingAccount(db, shop, environment);
  for (let tries = 0; tries < 5; tries += 1) {
    const reference = await allocateCustomReference(db, shop, now);
    if (sharing.length === 0) return reference;
    const where = { environment, shop: { in: sharing } };
    const clash = await db.purchaseAttempt.findFirst({ where: { ...where, customReference: reference }, select: { id: true } });
    if (!clash) return reference;
    const day = referenceDay(now);
    const used = await db.purchaseAttempt.findMany({ where: { ...where, customReference: { startsWith: `${day}-` } }, select: { customReference: true } });
    const highest = Math.max(0, ...used.map((row) => Number(row.customReference.slice(day.length + 1))).filter(Number.isFinite));
    await db.referenceCounter.updateMany({ where: { shop, day, value: { lt: highest } }, data: { value: highest } });
  }
  throw new Error(`no custom_reference free of the shops sharing this label-service account (${sharing.join(", ")}); try again`);
}

/** What already holds an order's label slot, if anything: its label, or the attempt still in flight. */
export function slotHolder(db: PrismaClient, shop: string, orderId: string, labelIndex = 1, location?: string): Promise<PurchaseResult | null> {
  return holderOf(db, orderSlot(shop, orderId, labelIndex, location), shop);
}

/** The next label index for an explicit "create an additional label" action. */
export async function nextLabelIndex(db: PrismaClient, shop: string, orderId: string): Promise<number> {
  const last = await db.purchaseAttempt.findFirst({
    where: { shop, orderId, NOT: { status: ATTEMPT.REJECTED } },
    orderBy: { labelIndex: "desc" },
  });
  return (last?.labelIndex ?? 0) + 1;
}

export async function purchaseLabel(deps: PurchaseDeps, input: PurchaseInput): Promise<PurchaseResult> {
  const slot = orderSlot(input.shop, input.orderId, input.labelIndex ?? 1, input.location);

  // Cheap early exit; the unique slot below is what actually guarantees one purchase.
  if (!input.slotSeenFree) {
    const holder = await holderOf(deps.db, slot, input.shop);
    if (holder) return holder;
  }

  const turn = deps.service.reserveGenerate ? await deps.service.reserveGenerate() : undefined;
  try {
    return await purchaseInTurn(deps, input, slot, turn);
  } finally {
    await turn?.release();
  }
}

/** The purchase once it may call the service: reference, attempt, call, outcome. */
async function purchaseInTurn(deps: PurchaseDeps, input: PurchaseInput, slot: string, turn: GenerateTurn | undefined): Promise<PurchaseResult> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const timings = deps.timings ?? reconcileTimings();
  const labelIndex = input.labelIndex ?? 1;
  const customReference = await allocateUnsharedReference(db, input.shop, input.environment, now());
  const request = { ...input.buildRequest(customReference), custom_reference: customReference };

  let attempt: PurchaseAttempt;
  try {
    attempt = await insertAttempt(
      db,
      {
        shop: input.shop,
        orderId: input.orderId,
        orderName: input.orderName,
        environment: input.environment,
        customReference,
        orderSlot: slot,
        labelIndex,
        locationId: input.location ?? null,
        fulfillmentOrderId: input.fulfillmentOrderId ?? null,
        status: ATTEMPT.PENDING,
        // The recipient is sealed at rest (decision 0172); carrier, parcel and customs lines stay readable.
        requestJson: sealRequest(request),
      },
      now(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) return existingHolder(db, slot, input.shop);
    throw error;
  }

  let outcome: GenerateOutcome;
  const sentAt = now();
  try {
    outcome = await (turn ?? deps.service).generateLabel(request);
    // The service answered: the turn goes back now, not after the label is stored.
    await turn?.release();
  } catch (error) {
    // The client classifies outcomes itself; anything thrown here happened at an unknown point: reconcile.
    const message = error instanceof Error ? error.message : String(error);
    outcome = { status: "unknown", error: { message, messageFr: `Réponse inconnue du service d'étiquettes : ${message}` } };
  }

  if (outcome.status === "created") {
    const serviceLabel = { id: outcome.label.id, reference: outcome.label.reference, label_url: outcome.label.label_url, tracking_url: outcome.label.tracking_url };
    try {
      return { status: "created", label: await adoptLabel(db, attempt, serviceLabel) };
    } catch (error) {
      // Charged, but storing the label failed: keep the slot and let reconciliation find the label by reference.
      const cause = error instanceof Error ? error.message : String(error);
      const error_ = {
        message: `the label ${outcome.label.id} (tracking ${outcome.label.reference}) was bought but could not be stored: ${cause}`,
        messageFr: `l'étiquette ${outcome.label.id} (suivi ${outcome.label.reference}) a été achetée mais n'a pas pu être enregistrée : ${cause}`,
      };
      // The service's answer is kept with the attempt: reconciliation stores exactly this label, no search needed.
      const kept = await db.purchaseAttempt.updateMany({
        where: { id: attempt.id, labelId: null },
        data: { status: ATTEMPT.UNKNOWN, errorJson: JSON.stringify({ ...error_, serviceLabel }), nextReconcileAt: new Date(now().getTime() + (timings.backoffMs[1] ?? timings.backoffMs[0] ?? 0)) },
      });
      if (kept.count === 0) {
        const stored = await storedLabelOf(db, attempt.id);
        if (stored) return { status: "created", label: stored };
      }
      const unknown = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } });
      return { status: "unknown", attempt: unknown, error: error_ };
    }
  }
  // A slow answer may come after reconciliation already stored this attempt's label (the call outlasted the stale
  // mark, e.g. queued behind this process's other calls to the account): the answer is then written only to an
  // attempt still without a label, so a slot is never given back, nor an attempt reopened, while it holds a label.
  const data =
    outcome.status === "rejected"
      ? { status: ATTEMPT.REJECTED, orderSlot: null, errorJson: JSON.stringify(outcome.error) }
      : {
          status: ATTEMPT.UNKNOWN,
          errorJson: JSON.stringify(outcome.error),
          nextReconcileAt: new Date(now().getTime() + (timings.backoffMs[0] ?? 0)),
          absenceProofFrom: answeredUnprocessed(outcome.error) ? null : lateChargeHorizon(sentAt, timings),
        };
  const written = await db.purchaseAttempt.updateMany({ where: { id: attempt.id, labelId: null }, data });
  if (written.count === 0) return storedOutcome(db, attempt.id);
  return { status: outcome.status, attempt: await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } }), error: outcome.error };
}

/** The label stored for an attempt that was closed while its call was out. */
async function storedOutcome(db: PrismaClient, attemptId: string): Promise<PurchaseResult> {
  const stored = await storedLabelOf(db, attemptId);
  if (!stored) throw new Error(`purchase attempt ${attemptId} was closed while its call was out, but holds no label`);
  return { status: "created", label: stored };
}

/**
 * Stores the label of an attempt (from the response, found by reconciliation, or attached by the merchant) and
 * closes the attempt. The attempt is claimed first (`labelId` still empty), so when two of those race only one label
 * is stored and the other gets that one back; a late answer for a released attempt is still recorded (it was charged).
 */
export async function adoptLabel(
  db: PrismaClient,
  attempt: PurchaseAttempt,
  remote: RemoteLabel & { id: string; reference: string },
): Promise<Label> {
  const request = JSON.parse(attempt.requestJson) as LabelRequest;
  const fields = {
    shop: attempt.shop,
    orderId: attempt.orderId,
    orderName: attempt.orderName,
    environment: attempt.environment,
    customReference: attempt.customReference,
    serviceLabelId: remote.id,
    trackingNumber: remote.reference,
    trackingUrl: remote.tracking_url ?? "",
    labelUrl: remote.label_url ?? "",
    carrierName: request.carrier_name,
    carrierServiceName: request.carrier_service_name,
    labelFormat: request.sender.labelType,
    requestSnapshotJson: attempt.requestJson,
    fulfillmentOrderId: attempt.fulfillmentOrderId,
  };
  let adopted: Label | null;
  try {
    adopted = await insertLabelForAttempt(db, attempt.id, fields, ATTEMPT.CREATED, new Date());
  } catch (error) {
    // The same service label stored by a concurrent adopter of this attempt: the stored one is returned below.
    if (!isUniqueViolation(error)) throw error;
    adopted = null;
  }
  if (adopted) return adopted;
  const settled = await storedLabelOf(db, attempt.id);
  if (!settled) throw new Error(`purchase attempt ${attempt.id} changed while its label was being stored`);
  return settled;
}

async function storedLabelOf(db: PrismaClient, attemptId: string): Promise<Label | null> {
  const attempt = await attemptById(db, attemptId);
  return attempt?.labelId ? labelById(db, attempt.labelId) : null;
}
