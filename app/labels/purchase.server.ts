/**
 * Buying a label without ever buying two.
 *
 *  1. A custom_reference is allocated and a PurchaseAttempt is written BEFORE the call. The attempt holds the
 *     order's label slot (`<shop>|<order>|<labelIndex>`, unique), so a double click, a second tab or a concurrent
 *     job finds the slot taken and never reaches the label service.
 *  2. The service is called once. No retry.
 *  3. CREATED: the label is stored. REJECTED (nothing charged): the slot is released so the merchant can fix the
 *     data and try again. UNKNOWN (timeout, lost connection, 5xx): the slot stays held and the attempt is
 *     reconciled by looking its custom_reference up in the service's label list, with backoff. A lookup reads the
 *     list (newest first) back to the attempt's own time, whatever the number of labels bought since, within a
 *     generous page cap. Still not found after the last try: NEEDS_REVIEW. A PENDING attempt whose process died
 *     before the outcome was recorded is reconciled the same way once stale.
 *  4. The merchant may release an unsettled attempt ("No label was bought") only once two lookups after the call, a
 *     few seconds apart (half the first retry delay at least), each read the list back to the attempt's time and
 *     found no label with its reference (canRelease). A lookup stopped by the page cap, or one that failed, proves
 *     nothing; a service that lists no references leaves the release to the merchant after review.
 *  Timings come from the configuration (RECONCILE_*, LABEL_LOOKUP_MAX_PAGES; app/config.server.ts).
 */
import { DEFAULT_RECONCILE_TIMINGS, reconcileTimings, type ReconcileTimings } from "../config.server";
import type { PrismaClient, Label, PurchaseAttempt } from "../generated/prisma/client";
import type { LabelRequest } from "../label-service/contract";
import type { LabelEnvironment } from "./accounts.server";
import { ATTEMPT, isOutcomeOpen, needsReview, OUTCOME_OPEN_STATUSES } from "./status";
import { joinedNote, note as noteOf, type Note, type NoteCode, type NoteParams } from "./notes";
import { allocateCustomReference, referenceDay } from "./references.server";
import { sealRequest } from "../privacy/snapshot-seal.server";

/** What the purchase layer needs from the label-service client. */
export interface LabelServicePort {
  generateLabel(request: LabelRequest): Promise<GenerateOutcome>;
  /** Reads the service's list, newest first, back to `since` (see LabelLookup). */
  lookUpLabelByReference(customReference: string, params: { since: Date }): Promise<LabelLookup>;
  /** Optional: lets the merchant attach a label found in the service's list by its id. */
  lookUpLabelById?(id: string, params: { since: Date }): Promise<LabelLookup>;
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

/** Default delays before each reconciliation try after an UNKNOWN outcome (then NEEDS_REVIEW); RECONCILE_BACKOFF_MS. */
export const RECONCILE_BACKOFF_MS = DEFAULT_RECONCILE_TIMINGS.backoffMs;

/**
 * Default age after which a PENDING attempt lost its process (crash, deploy) between the call and recording the
 * outcome: it is reconciled like an UNKNOWN one. Well above the generate_label timeout (60 s by default).
 * RECONCILE_STALE_AFTER_MS.
 */
export const STALE_PENDING_MS = DEFAULT_RECONCILE_TIMINGS.staleAfterMs;

/**
 * A lookup reads back to the attempt's creation minus this margin, so a label stamped by a service whose clock runs
 * behind ours is still read.
 */
export const LOOKUP_CLOCK_MARGIN_MS = 15 * 60_000;

/** Lookups proving absence (each read back to the attempt's time) before the merchant may release the order. */
export const ABSENT_LOOKUPS_BEFORE_RELEASE = 2;

/** A note stored with an attempt (errorJson): a code plus parameters, translated at display (./notes.ts). */
const STALE_NOTE: Note = noteOf("attempt_stale");

export interface PurchaseInput {
  shop: string;
  environment: LabelEnvironment;
  orderId: string;
  orderName: string;
  /** The fulfillment order this parcel ships; fulfilled in Shopify once the label exists. */
  fulfillmentOrderId?: string;
  /** 1 for the order's label; higher only when the merchant explicitly asks for an additional label. */
  labelIndex?: number;
  /** Builds the request once the reference is known (the mapper takes the reference as input). */
  buildRequest: (customReference: string) => LabelRequest;
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

export function orderSlot(shop: string, orderId: string, labelIndex: number): string {
  return `${shop}|${orderId}|${labelIndex}`;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
}

async function holderOf(db: PrismaClient, slot: string, shop: string): Promise<PurchaseResult | null> {
  const attempt = await db.purchaseAttempt.findFirst({ where: { orderSlot: slot, shop }, include: { label: true } });
  if (!attempt) return null;
  return attempt.label ? { status: "already_labelled", label: attempt.label } : { status: "in_progress", attempt };
}

async function existingHolder(db: PrismaClient, slot: string, shop: string): Promise<PurchaseResult> {
  const holder = await holderOf(db, slot, shop);
  if (!holder) throw new Error(`label slot ${slot} is taken but its attempt is gone`);
  return holder;
}

/** True while an attempt's outcome is open: unknown, awaiting review, or in flight so long its process must have died. */
function isUnsettled(attempt: PurchaseAttempt, now: Date, timings: ReconcileTimings): boolean {
  if (isOutcomeOpen(attempt.status)) return true;
  return attempt.status === ATTEMPT.PENDING && attempt.updatedAt.getTime() <= now.getTime() - timings.staleAfterMs;
}

/** What the latest lookup of an attempt established (PurchaseAttempt.lastLookup). */
export type LastLookup = "found" | "absent" | "unreferenced" | "page_cap" | "failed";

type ReleaseView = Pick<PurchaseAttempt, "status" | "labelId" | "absentLookups" | "lastLookup">;

/** Two lookups after the call read the list back to the attempt's time and found no label with its reference. */
export function absenceProven(attempt: Pick<PurchaseAttempt, "absentLookups">): boolean {
  return attempt.absentLookups >= ABSENT_LOOKUPS_BEFORE_RELEASE;
}

/**
 * The merchant may release the order ("No label was bought") only when lookups after the call read the service's list
 * back to the attempt's own time: never while it has not been read that far. Either absence is proven, or the attempt
 * needs review after its full backoff and the list, read that far, lists labels without a reference (a service that
 * does not show references): then only the merchant's own check of the service's dashboard can settle it.
 */
export function canRelease(attempt: ReleaseView): boolean {
  if (attempt.labelId !== null || !isOutcomeOpen(attempt.status)) return false;
  return absenceProven(attempt) || (needsReview(attempt.status) && attempt.lastLookup === "unreferenced");
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
  const own = await db.labelServiceAccount.findUnique({ where: { shop_environment: { shop, environment } }, select: { email: true } });
  if (!own) return [];
  const others = await db.labelServiceAccount.findMany({ where: { environment, NOT: { shop } }, select: { shop: true, email: true } });
  return others.filter((row) => row.email.toLowerCase() === own.email.toLowerCase()).map((row) => row.shop);
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
export function slotHolder(db: PrismaClient, shop: string, orderId: string, labelIndex = 1): Promise<PurchaseResult | null> {
  return holderOf(db, orderSlot(shop, orderId, labelIndex), shop);
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
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const timings = deps.timings ?? reconcileTimings();
  const labelIndex = input.labelIndex ?? 1;
  const slot = orderSlot(input.shop, input.orderId, labelIndex);

  // Cheap early exit; the unique slot below is what actually guarantees one purchase.
  const holder = await holderOf(db, slot, input.shop);
  if (holder) return holder;

  const customReference = await allocateUnsharedReference(db, input.shop, input.environment, now());
  const request = { ...input.buildRequest(customReference), custom_reference: customReference };

  let attempt: PurchaseAttempt;
  try {
    attempt = await db.purchaseAttempt.create({
      data: {
        shop: input.shop,
        orderId: input.orderId,
        orderName: input.orderName,
        environment: input.environment,
        customReference,
        orderSlot: slot,
        labelIndex,
        fulfillmentOrderId: input.fulfillmentOrderId ?? null,
        status: ATTEMPT.PENDING,
        // The recipient is sealed at rest (decision 0172); carrier, parcel and customs lines stay readable.
        requestJson: sealRequest(request),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) return existingHolder(db, slot, input.shop);
    throw error;
  }

  let outcome: GenerateOutcome;
  const sentAt = now();
  try {
    outcome = await deps.service.generateLabel(request);
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
  if (outcome.status === "rejected") {
    const rejected = await db.purchaseAttempt.update({
      where: { id: attempt.id },
      data: { status: ATTEMPT.REJECTED, orderSlot: null, errorJson: JSON.stringify(outcome.error) },
    });
    return { status: "rejected", attempt: rejected, error: outcome.error };
  }
  const unknown = await db.purchaseAttempt.update({
    where: { id: attempt.id },
    data: {
      status: ATTEMPT.UNKNOWN,
      errorJson: JSON.stringify(outcome.error),
      nextReconcileAt: new Date(now().getTime() + (timings.backoffMs[0] ?? 0)),
      absenceProofFrom: answeredUnprocessed(outcome.error) ? null : lateChargeHorizon(sentAt, timings),
    },
  });
  return { status: "unknown", attempt: unknown, error: outcome.error };
}

/**
 * Stores the label of an attempt (from the response, found by reconciliation, or attached by the merchant) and
 * closes the attempt. The attempt is claimed first (`labelId` still empty), so when two of those race only one label
 * is stored and the other gets that one back; a late answer for a released attempt is still recorded (it was charged).
 */
async function adoptLabel(
  db: PrismaClient,
  attempt: PurchaseAttempt,
  remote: RemoteLabel & { id: string; reference: string },
): Promise<Label> {
  const request = JSON.parse(attempt.requestJson) as LabelRequest;
  const adopted = await db.$transaction(async (tx) => {
    const claimed = await tx.purchaseAttempt.updateMany({
      where: { id: attempt.id, labelId: null },
      data: { status: ATTEMPT.CREATED, nextReconcileAt: null },
    });
    if (claimed.count === 0) return null;
    const label = await tx.label.create({
      data: {
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
      },
    });
    await tx.purchaseAttempt.update({ where: { id: attempt.id }, data: { labelId: label.id } });
    return label;
  });
  if (adopted) return adopted;
  const settled = await storedLabelOf(db, attempt.id);
  if (!settled) throw new Error(`purchase attempt ${attempt.id} changed while its label was being stored`);
  return settled;
}

async function storedLabelOf(db: PrismaClient, attemptId: string): Promise<Label | null> {
  return (await db.purchaseAttempt.findUnique({ where: { id: attemptId }, include: { label: true } }))?.label ?? null;
}

/** The label the service returned for an attempt whose storage failed (kept in its note), if any. */
function knownServiceLabel(attempt: PurchaseAttempt): (RemoteLabel & { id: string; reference: string }) | undefined {
  if (!attempt.errorJson) return undefined;
  try {
    const parsed = JSON.parse(attempt.errorJson) as { serviceLabel?: Partial<RemoteLabel> };
    const known = parsed.serviceLabel;
    return known && typeof known.id === "string" && typeof known.reference === "string" ? { ...known, id: known.id, reference: known.reference } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records a reconciliation step only if nobody settled the attempt meanwhile (same status, no label); otherwise
 * returns what it became.
 */
async function recordStep(
  db: PrismaClient,
  attempt: PurchaseAttempt,
  data: {
    status: string;
    reconcileCount: number;
    absentLookups: number;
    lastLookup: LastLookup;
    lastLookupAt: Date;
    absenceProofFrom: Date | null;
    nextReconcileAt: Date | null;
    errorJson?: string;
  },
): Promise<ReconcileResult> {
  const written = await db.purchaseAttempt.updateMany({ where: { id: attempt.id, status: attempt.status, labelId: null }, data });
  const fresh = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id }, include: { label: true } });
  if (fresh.label) return { status: "created", label: fresh.label };
  if (written.count === 0) return { status: "not_reconcilable", attempt: fresh };
  return data.status === ATTEMPT.NEEDS_REVIEW ? { status: "needs_review", attempt: fresh } : { status: "pending", attempt: fresh };
}

export type ReconcileResult =
  | { status: "created"; label: Label }
  | { status: "pending"; attempt: PurchaseAttempt }
  | { status: "needs_review"; attempt: PurchaseAttempt }
  | { status: "not_reconcilable"; attempt: PurchaseAttempt };

/** What a lookup that proved nothing says, for the attempt's note. */
function incompleteNote(lookup: Extract<LabelLookup, { status: "incomplete" }>): Note {
  if (lookup.reason !== "page_cap") return noteOf("lookup_unreferenced");
  return noteOf("lookup_page_cap", lookup.pagesRead === undefined ? {} : { pages: String(lookup.pagesRead) });
}

const ABSENT_NOTE: Note = noteOf("lookup_absent");

/** An absent label while the service may still charge late: the note says until when, in UTC. */
function notYetNote(until: Date): Note {
  const at = `${until.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return noteOf("lookup_not_yet", { until: at });
}

/** One reconciliation try for an UNKNOWN attempt: adopt the label if the service has it, else back off. */
export async function reconcileAttempt(deps: PurchaseDeps, shop: string, attemptId: string): Promise<ReconcileResult> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const timings = deps.timings ?? reconcileTimings();
  const attempt = await db.purchaseAttempt.findFirst({ where: { id: attemptId, shop } });
  if (!attempt) throw new Error(`no purchase attempt ${attemptId} for ${shop}`);
  if (!isUnsettled(attempt, now(), timings)) return { status: "not_reconcilable", attempt };
  const stalePending = attempt.status === ATTEMPT.PENDING;

  const known = knownServiceLabel(attempt);
  if (known && !(await storedConflict(db, attempt, known.id))) {
    return { status: "created", label: await adoptLabel(db, attempt, known) };
  }

  let lookup: LabelLookup | undefined;
  let lookupError: Note | undefined;
  try {
    lookup = await deps.service.lookUpLabelByReference(attempt.customReference, { since: lookupSince(attempt) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const messageFr = (error as { messageFr?: unknown }).messageFr;
    lookupError = noteOf("lookup_failed", { detail: message, ...(typeof messageFr === "string" ? { detailFr: messageFr } : {}) });
  }
  const found = lookup?.status === "found" ? lookup.label : null;

  const ambiguity = found?.id ? await adoptionConflict(db, attempt, found.id) : undefined;
  if (found && found.id && found.reference && !ambiguity) {
    const label = await adoptLabel(db, attempt, { ...found, id: found.id, reference: found.reference });
    return { status: "created", label };
  }

  // A "Check again" before the next scheduled try looks, but does not use up a step of the backoff: clicks must not
  // hurry an attempt into review (and its release) while a late answer may still come.
  const early = attempt.status === ATTEMPT.UNKNOWN && attempt.nextReconcileAt !== null && now().getTime() < attempt.nextReconcileAt.getTime();
  const tries = early ? attempt.reconcileCount : attempt.reconcileCount + 1;
  // A purchase whose process died in flight may have been sent: it may still be charged late, like an unanswered one.
  const absenceProofFrom = attempt.absenceProofFrom ?? (stalePending ? lateChargeHorizon(attempt.createdAt, timings) : null);
  // Only a lookup that read back to the attempt's time and found nothing counts towards releasing the order, and only
  // once a late charge is no longer possible. Two lookups a moment apart, not twice the same instant (the background
  // pass and "Check again" can coincide).
  const spaced =
    attempt.absentLookups === 0 || !attempt.lastLookupAt || now().getTime() - attempt.lastLookupAt.getTime() >= (timings.backoffMs[1] ?? 0) / 2;
  const late = absenceProofFrom === null || now().getTime() >= absenceProofFrom.getTime();
  const absentLookups = lookup?.status === "absent" ? attempt.absentLookups + (spaced && late ? 1 : 0) : 0;
  const lastLookup: LastLookup = !lookup ? "failed" : lookup.status === "incomplete" ? lookup.reason : lookup.status;
  const lastLookupAt = now();
  const nextDelay = timings.backoffMs[tries];
  const outcomeNote: Note | undefined =
    lookupError ??
    (lookup?.status === "incomplete"
      ? incompleteNote(lookup)
      : lookup?.status === "absent"
        ? late
          ? ABSENT_NOTE
          : notYetNote(absenceProofFrom!)
        : undefined);
  const note: Note =
    ambiguity ??
    (found
      ? noteOf("lookup_label_incomplete")
      : (outcomeNote ?? ABSENT_NOTE));
  const keep = known ? { serviceLabel: known } : {};
  if (nextDelay === undefined || found) {
    return recordStep(db, attempt, {
      status: ATTEMPT.NEEDS_REVIEW,
      reconcileCount: tries,
      absentLookups,
      lastLookup,
      lastLookupAt,
      absenceProofFrom,
      nextReconcileAt: null,
      errorJson: JSON.stringify({ ...note, ...keep }),
    });
  }
  const notes = [stalePending ? STALE_NOTE : undefined, outcomeNote].filter((item): item is Note => item !== undefined);
  const pendingNote = notes.length ? joinedNote(notes) : undefined;
  // A stale PENDING attempt becomes UNKNOWN here, so the background reconciler follows the backoff from now on.
  return recordStep(db, attempt, {
    status: ATTEMPT.UNKNOWN,
    reconcileCount: tries,
    absentLookups,
    lastLookup,
    lastLookupAt,
    absenceProofFrom,
    nextReconcileAt: early ? attempt.nextReconcileAt : new Date(now().getTime() + nextDelay),
    ...(pendingNote ? { errorJson: JSON.stringify({ ...pendingNote, ...keep }) } : {}),
  });
}

/** A label already stored here (for another attempt of this shop, or for another shop) is never adopted again. */
async function storedConflict(db: PrismaClient, attempt: PurchaseAttempt, serviceLabelId: string): Promise<Note | undefined> {
  const stored = await db.label.findFirst({ where: { serviceLabelId, environment: attempt.environment }, select: { id: true, orderName: true, shop: true } });
  if (!stored || stored.id === attempt.labelId) return undefined;
  return stored.shop === attempt.shop
    ? noteOf("label_stored_for_order", { label: serviceLabelId, order: stored.orderName })
    : noteOf("label_other_shop", { label: serviceLabelId });
}

/**
 * Why a label found by reference must not be adopted automatically: it is stored already (for another attempt),
 * or another shop on the same label-service account used the same reference, so it may be theirs.
 */
async function adoptionConflict(db: PrismaClient, attempt: PurchaseAttempt, serviceLabelId: string): Promise<Note | undefined> {
  const stored = await storedConflict(db, attempt, serviceLabelId);
  if (stored) return stored;
  const sharing = await shopsSharingAccount(db, attempt.shop, attempt.environment);
  if (sharing.length === 0) return undefined;
  const twin = await db.purchaseAttempt.findFirst({
    where: { customReference: attempt.customReference, environment: attempt.environment, shop: { in: sharing } },
    select: { id: true },
  });
  return twin ? noteOf("reference_shared") : undefined;
}

export type AttachResult = { status: "created"; label: Label } | { status: "refused"; reason: Note };

/**
 * The merchant found the label of an unresolved attempt in the service's list (its reference may be missing there)
 * and gives its id: it is stored for the attempt, without buying anything. Refused when the label is unknown to the
 * service, carries another attempt's reference, or is already stored here.
 */
export async function attachLabelById(deps: PurchaseDeps, shop: string, attemptId: string, serviceLabelId: string): Promise<AttachResult> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const id = serviceLabelId.trim();
  const attempt = await db.purchaseAttempt.findFirst({ where: { id: attemptId, shop } });
  if (!attempt) throw new Error(`no purchase attempt ${attemptId} for ${shop}`);
  const refuse = (code: NoteCode, params: NoteParams = {}): AttachResult => ({ status: "refused", reason: noteOf(code, params) });
  if (!isUnsettled(attempt, now(), deps.timings ?? reconcileTimings())) return refuse("attach_not_waiting");
  if (!deps.service.lookUpLabelById) return refuse("attach_unsupported");
  const lookup = await deps.service.lookUpLabelById(id, { since: lookupSince(attempt) });
  if (lookup.status === "incomplete") {
    return refuse("attach_list_incomplete", lookup.pagesRead === undefined ? {} : { pages: String(lookup.pagesRead) });
  }
  if (lookup.status === "absent") {
    return refuse("attach_absent", { label: id });
  }
  const remote = lookup.label;
  if (remote.custom_reference && remote.custom_reference !== attempt.customReference) {
    return refuse("attach_other_reference", { label: id, found: remote.custom_reference, reference: attempt.customReference });
  }
  const conflict = await storedConflict(db, attempt, id);
  if (conflict) return { status: "refused", reason: conflict };
  if (!remote.reference) {
    return refuse("attach_no_tracking", { label: id });
  }
  const label = await adoptLabel(db, attempt, { ...remote, id, reference: remote.reference });
  return { status: "created", label };
}

/** Attempts whose next reconciliation try is due, across shops (for the background reconciler). */
export async function dueReconciliations(db: PrismaClient, now: Date, limit = 20, timings: ReconcileTimings = reconcileTimings()) {
  return db.purchaseAttempt.findMany({
    where: {
      OR: [
        { status: ATTEMPT.UNKNOWN, nextReconcileAt: { lte: now } },
        { status: ATTEMPT.PENDING, updatedAt: { lte: new Date(now.getTime() - timings.staleAfterMs) } },
      ],
    },
    orderBy: { updatedAt: "asc" },
    take: limit,
    select: { id: true, shop: true, environment: true },
  });
}

/**
 * The merchant confirms no label was bought for this attempt: release the order's slot so a new purchase can be made.
 * Only for an unsettled attempt without a label whose lookups proved the service lists none (canRelease); null when it
 * was settled meanwhile (another tab, the reconciler) or is not proven absent, so the page can say so.
 */
export async function releaseReviewedAttempt(db: PrismaClient, shop: string, attemptId: string): Promise<PurchaseAttempt | null> {
  const released = await db.purchaseAttempt.updateMany({
    // The same condition as canRelease, checked in the write so a lookup or adoption in between wins.
    where: {
      id: attemptId,
      shop,
      labelId: null,
      OR: [
        { status: { in: [...OUTCOME_OPEN_STATUSES] }, absentLookups: { gte: ABSENT_LOOKUPS_BEFORE_RELEASE } },
        { status: ATTEMPT.NEEDS_REVIEW, lastLookup: "unreferenced" },
      ],
    },
    data: { status: ATTEMPT.REJECTED, orderSlot: null },
  });
  if (released.count === 0) return null;
  return db.purchaseAttempt.findUniqueOrThrow({ where: { id: attemptId } });
}
