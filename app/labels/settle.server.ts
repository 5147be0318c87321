/**
 * Settling a purchase whose outcome is not clear (./purchase.server.ts buys; this file settles what it left open):
 *
 *  - reconcileAttempt: an UNKNOWN attempt (timeout, lost connection, 5xx) is looked up by its custom_reference in the
 *    service's label list, with backoff. A lookup reads the list (newest first) back to the attempt's own time,
 *    whatever the number of labels bought since, within a generous page cap. Still not found after the last try:
 *    NEEDS_REVIEW. A PENDING attempt whose process died before the outcome was recorded is settled the same way
 *    once stale.
 *  - attachLabelById: the merchant found the label in the service's list and gives its id.
 *  - releaseReviewedAttempt: the merchant may release an unsettled attempt ("No label was bought") only once two
 *    lookups after the call, a few seconds apart (half the first retry delay at least), each read the list back to
 *    the attempt's time and found no label with its reference (canRelease). A lookup stopped by the page cap, or one
 *    that failed, proves nothing; a service that lists no references leaves the release to the merchant after review.
 *  - dueReconciliations: what the background pass (./reconcile.server.ts) settles next.
 */
import { DEFAULT_RECONCILE_TIMINGS, reconcileTimings, type ReconcileTimings } from "../config.server";
import type { Label, PrismaClient, PurchaseAttempt } from "../generated/prisma/client";
import { joinedNote, note as noteOf, type Note, type NoteCode, type NoteParams } from "./notes";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { retryFulfillment } from "./fulfill.server";
import { dueAttempts } from "./label-rows.server";
import { adoptLabel, lateChargeHorizon, lookupSince, shopsSharingAccount, type LabelLookup, type LabelServicePort, type PurchaseDeps, type RemoteLabel } from "./purchase.server";
import { ATTEMPT, isOutcomeOpen, needsReview, OUTCOME_OPEN_STATUSES } from "./status";

/** Default delays before each reconciliation try after an UNKNOWN outcome (then NEEDS_REVIEW); RECONCILE_BACKOFF_MS. */
export const RECONCILE_BACKOFF_MS = DEFAULT_RECONCILE_TIMINGS.backoffMs;

/**
 * Default age after which a PENDING attempt lost its process (crash, deploy) between the call and recording the
 * outcome: it is reconciled like an UNKNOWN one. Well above the generate_label timeout (60 s by default).
 * RECONCILE_STALE_AFTER_MS.
 */
export const STALE_PENDING_MS = DEFAULT_RECONCILE_TIMINGS.staleAfterMs;

/** Lookups proving absence (each read back to the attempt's time) before the merchant may release the order. */
export const ABSENT_LOOKUPS_BEFORE_RELEASE = 2;

/** A note stored with an attempt (errorJson): a code plus parameters, translated at display (./notes.ts). */
const STALE_NOTE: Note = noteOf("attempt_stale");

/** True while an attempt's outcome is open: unknown, awaiting review, or in flight so long its process must have died. */
export function isUnsettled(attempt: PurchaseAttempt, now: Date, timings: ReconcileTimings): boolean {
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
  return dueAttempts(db, { now, staleBefore: new Date(now.getTime() - timings.staleAfterMs), limit });
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

/*
 * The order page's "Check again" and "Attach this label": settle now, then push a label found to Shopify.
 */
type PageSettleDeps = { db: PrismaClient; admin: AdminGraphqlClient; service: LabelServicePort; notifyCustomer?: boolean };

/** "Check again" on an attempt whose outcome is unknown or needs review. */
export async function reconcileNow(deps: PageSettleDeps, shop: string, attemptId: string) {
  const result = await reconcileAttempt({ db: deps.db, service: deps.service }, shop, attemptId);
  if (result.status === "created") {
    return { result, fulfillment: await retryFulfillment(deps, shop, result.label.id) };
  }
  return { result };
}

/** "Attach this label": store the label the merchant found in the service's list for an unresolved attempt. */
export async function attachNow(
  deps: PageSettleDeps,
  shop: string,
  attemptId: string,
  serviceLabelId: string,
) {
  const result = await attachLabelById({ db: deps.db, service: deps.service }, shop, attemptId, serviceLabelId);
  if (result.status === "created") {
    return { result, fulfillment: await retryFulfillment(deps, shop, result.label.id) };
  }
  return { result };
}
