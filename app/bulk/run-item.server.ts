/**
 * Runs one item of a bulk job (called by the queue's `bulk-label-item` handler): claim it, label the order with the
 * job's frozen environment and settings through `labelOrder` (the single-order guarantees: slot, reference, no retry
 * of a purchase, the unknown reconciled), and record the outcome on the item.
 *
 *  - labelled -> LABELLED (`alreadyLabelled` when the label predates the job: it was never bought again);
 *  - blocked -> BLOCKED with the first problem as data; refused -> REFUSED; pending -> PENDING (settled later from the
 *    purchase attempt, see pending.server.ts);
 *  - Shopify's throttle and a 429 from the service wait and try again (the queue's retry with our delay); a 429 is
 *    tried ITEM_REFUSAL_RETRIES times, then REFUSED; Shopify's throttle never fails the item before the queue's
 *    last attempt.
 * Each call to the label service holds one slot of `label-service:<environment>:<account>` (the database semaphore,
 * shared by every instance) for LABEL_SERVICE_MAX_CONCURRENCY per account.
 *
 * Shopify points (issue 19): the item labels from the order its job's preflight read while that read is fresh
 * (decision 0184: no OrderForLabel, no FulfillmentContext), leaves the order summary to a batched metafieldsSet
 * (decision 0185) and reads the shop's plan at most once a minute per job (decision 0186).
 */
import type { BulkJob, PrismaClient } from "../generated/prisma/client";
import { RetryableJobError } from "../jobs/errors";
import type { Semaphore } from "../jobs/semaphore.server";
import type { LabelEnvironment } from "../labels/environments";
import { labelEveryLocation } from "../labels/every-location.server";
import { labelOrder, type LabelContext, type LabelOrderOutcome } from "../labels/label-order.server";
import { flushOrderSummaries } from "../labels/summary-batch.server";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { METAFIELDS_PER_SET } from "../shopify/operations/fulfillment";
import { fetchIsDevelopmentStore } from "../shopify/operations/shop-plan";
import type { GenerateOutcome, GenerateTurn } from "../labels/purchase.server";
import { shippingSettingsSchema, type ShippingSettings } from "../shipping/settings";
import { createTtlCache, type TtlCache } from "../ttl-cache";
import { finishJobIfDone } from "./bulk-jobs.server";
import { accountSemaphoreKey, ITEM_QUEUE_RETRY_LIMIT, ITEM_REFUSAL_RETRIES, type BulkItemPayload } from "./item-job";
import { LocalGate } from "./local-gate";
import { openOrderDraft } from "./order-draft.server";
import { blockedReason, type Reason } from "./reasons";
import { extractServiceMessage } from "../label-service/errors";
import { serviceFieldProblems } from "../labels/order-edits.server";
import { anyItemLeft, claimItem, readJob, settleItem, type ItemSettlement } from "./item-rows.server";

export interface BulkRunDeps {
  db: PrismaClient;
  semaphore: Semaphore;
  /** LABEL_SERVICE_MAX_CONCURRENCY: calls at once per label-service account, across instances. */
  maxConcurrency: number;
  /** The shop's labelling context with the job's frozen environment and settings (offline session at boot). */
  contextFor(shop: string, frozen: { environment: LabelEnvironment; settings: ShippingSettings; database: PrismaClient }): Promise<LabelContext>;
  /** A slot's lease; renewed while the call runs, so a crashed holder frees it within this time. */
  slotLeaseMs?: number;
  /** Delay before the next try after a retryable refusal (attempt 1, 2, …); default 2 s doubling, at most 60 s. */
  refusalDelayMs?: (refusals: number) => number;
  log?: (message: string) => void;
  /** The clock (tests): an item's stored order is used only while fresh. */
  now?: () => Date;
}

export interface ItemRun {
  shop: string;
  payload: BulkItemPayload;
  /** The queue's attempt, 1 on the first run. */
  attempt: number;
  signal?: AbortSignal;
}

export type ItemRunResult = "skipped" | "LABELLED" | "BLOCKED" | "REFUSED" | "PENDING" | "waiting";

/** How long an instance keeps a shop's semaphore key (the account's e-mail) and a job's frozen row (decision 0199). */
export const ITEM_CACHE_MS = 30_000;

/** How long a job keeps the shop's plan (whether test labels may reach Shopify) before reading it again. */
export const SHOP_PLAN_KEPT_MS = 60_000;

type FrozenJob = { job: BulkJob; settings: ShippingSettings };

/** What one instance (these deps: one app process) keeps between items. */
interface InstanceState {
  /** One gate per semaphore key, so waiting items do not poll the shared slots. */
  gates: Map<string, LocalGate>;
  /** Per job: the shop's plan, read at most once per SHOP_PLAN_KEPT_MS (decision 0186; a failed read is not kept). */
  plans: TtlCache<boolean>;
  /** Per shop and environment: the semaphore key (the account's e-mail). */
  accountKeys: TtlCache<string>;
  /** Per job: its frozen row and parsed settings. */
  jobs: TtlCache<FrozenJob | null>;
  /** Per shop: when this instance last looked for due summaries, and how many it knows of since (see summariesWorthALook). */
  summaryTallies: Map<string, { lookedAt: number; count: number }>;
}

const states = new WeakMap<BulkRunDeps, InstanceState>();
function stateOf(deps: BulkRunDeps): InstanceState {
  let state = states.get(deps);
  if (!state) {
    state = {
      gates: new Map(),
      plans: createTtlCache<boolean>({ ttlMs: SHOP_PLAN_KEPT_MS }),
      accountKeys: createTtlCache<string>({ ttlMs: ITEM_CACHE_MS }),
      jobs: createTtlCache<FrozenJob | null>({ ttlMs: ITEM_CACHE_MS, maxEntries: 64 }),
      summaryTallies: new Map(),
    };
    states.set(deps, state);
  }
  return state;
}

/**
 * The account the service sees: shops that saved the same login share its concurrency. Kept ITEM_CACHE_MS per
 * instance: a shop that saves another login meanwhile counts against the old one's slots for that long at most.
 */
function accountKey(deps: BulkRunDeps, shop: string, environment: string): Promise<string> {
  return stateOf(deps).accountKeys.get(`${shop}|${environment}`, async () => {
    const rows = await deps.db.$queryRaw<{ email: string }[]>`SELECT "email" FROM "LabelServiceAccount" WHERE "shop" = ${shop} AND "environment" = ${environment}`;
    return accountSemaphoreKey(environment, rows[0]?.email ?? null, shop);
  });
}

/** The job's frozen part (shop, environment, settings, creation time), read and parsed once per instance for a while. */
function frozenJob(deps: BulkRunDeps, jobId: string): Promise<FrozenJob | null> {
  return stateOf(deps).jobs.get(jobId, async () => {
    const job = await readJob(deps.db, jobId);
    return job ? { job, settings: shippingSettingsSchema.parse(JSON.parse(job.settingsJson)) } : null;
  });
}

type Service = Awaited<ReturnType<LabelContext["service"]>>;

function localGate(deps: BulkRunDeps, key: string): LocalGate {
  const { gates } = stateOf(deps);
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = new LocalGate(deps.maxConcurrency)));
  return gate;
}

/** The answer to a purchase that never got a slot (the process is stopping): not sent, so nothing was charged. */
const NOT_SENT: GenerateOutcome = {
  status: "rejected",
  error: { message: "not sent: this app process is stopping; the order is run again", messageFr: "non envoyée : ce processus de l'application s'arrête ; la commande sera relancée", kind: "rate_limited" },
};

/**
 * The service with each of its calls holding a semaphore slot (renewed while the call runs). A purchase takes its
 * slot before its attempt is recorded (`reserveGenerate`), so the attempt is not waiting while it looks in flight. A
 * purchase that cannot get a slot (the wait was aborted) is answered "rejected, retryable" without being sent, so its
 * attempt is not left unknown for the reconciler.
 */
function throttledService(service: Service, take: () => Promise<{ release(): Promise<void>; renew(): Promise<boolean> }>, leaseMs: number): Service {
  /** One slot, renewed until it is handed back (`release` may be called more than once). */
  const hold = async () => {
    const lease = await take();
    const renewal = setInterval(() => void lease.renew().catch(() => undefined), Math.max(1000, Math.floor(leaseMs / 3)));
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        await lease.release().catch(() => undefined);
      },
    };
  };
  const held =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>, notSent?: R) =>
    async (...args: A): Promise<R> => {
      let slot: Awaited<ReturnType<typeof hold>>;
      try {
        slot = await hold();
      } catch (error) {
        if (notSent !== undefined) return notSent;
        throw error;
      }
      try {
        return await call(...args);
      } finally {
        await slot.release();
      }
    };
  // A purchase takes its slot before it records its attempt (LabelServicePort.reserveGenerate); the turn's call then
  // goes out at once, on that slot.
  const reserveGenerate = async (target: Service): Promise<GenerateTurn> => {
    try {
      const slot = await hold();
      return { generateLabel: (request) => target.generateLabel(request), release: slot.release };
    } catch {
      return { generateLabel: async () => NOT_SENT, release: async () => undefined };
    }
  };
  const calls = new Set(["generateLabel", "lookUpLabelByReference", "lookUpLabelById", "carrierServices"]);
  return new Proxy(service, {
    get(target, property, receiver) {
      if (property === "reserveGenerate") return () => reserveGenerate(target);
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (property === "generateLabel") return held(bound, NOT_SENT);
      // A destination's services already in the client's cache: no call, so no slot (decision 0199).
      if (property === "carrierServices" && target.cachedCarrierServices) {
        const cached = target.cachedCarrierServices.bind(target);
        const call = held(bound);
        return (country: string) => {
          const services = cached(country);
          return services ? Promise.resolve(services) : call(country);
        };
      }
      return typeof property === "string" && calls.has(property) ? held(bound) : bound;
    },
  });
}

/** The shop's plan for one job, read at most once per SHOP_PLAN_KEPT_MS (a failed read is not kept). */
function jobPlan(deps: BulkRunDeps, jobId: string, admin: AdminGraphqlClient): () => Promise<boolean> {
  return () => stateOf(deps).plans.get(jobId, () => fetchIsDevelopmentStore(admin));
}

function retrySeconds(reason: Reason): number {
  const seconds = Number(reason.params?.seconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 5;
}

export async function runBulkItem(deps: BulkRunDeps, run: ItemRun): Promise<ItemRunResult> {
  const { db } = deps;
  const { bulkJobId, orderId } = run.payload;
  const frozen = await frozenJob(deps, bulkJobId);
  if (!frozen || frozen.job.shop !== run.shop) return "skipped";
  const { job } = frozen;
  // Claim: QUEUED -> RUNNING. A RUNNING item is run again (its previous run's process died and the queue's lease
  // expired): labelOrder's slot reports the label or the purchase in flight instead of buying twice. No item of this
  // order and shop in the job, or one already finished: nothing to do.
  const item = await claimItem(db, { jobId: bulkJobId, orderId, shop: run.shop }, new Date());
  if (!item) return "skipped";

  /** The item's Admin client, once its context is built (the summaries are flushed with it). */
  let admin: AdminGraphqlClient | undefined;
  const settle = async (status: "LABELLED" | "BLOCKED" | "REFUSED" | "PENDING" | "QUEUED", data: ItemSettlement = {}) => {
    // The stored order is kept only for the item's next run while it waits (QUEUED); ran, it is cleared.
    await settleItem(db, item.id, status, data, new Date());
    if (status === "QUEUED") return;
    const left = await anyItemLeft(db, bulkJobId);
    await finishJobIfDone(db, bulkJobId, left);
    // Whatever this item's outcome, it may be the job's last: the summaries its labels left are written then.
    if (admin && summariesWorthALook(deps, run.shop, status === "LABELLED", left)) await flushSummaries(deps, admin, run.shop, left);
  };
  const lastAttempt = run.attempt > ITEM_QUEUE_RETRY_LIMIT;

  let outcome: LabelOrderOutcome;
  try {
    const { settings } = frozen;
    const environment = job.environment as LabelEnvironment;
    const context = await deps.contextFor(run.shop, { environment, settings, database: db });
    const key = await accountKey(deps, run.shop, environment);
    const leaseMs = deps.slotLeaseMs ?? 30_000;
    const service = context.service;
    const take = async () => {
      const gate = localGate(deps, key);
      await gate.enter(run.signal);
      try {
        const lease = await deps.semaphore.acquire(key, deps.maxConcurrency, leaseMs, { signal: run.signal });
        return {
          renew: () => lease.renew(),
          release: async () => {
            try {
              await lease.release();
            } finally {
              gate.leave();
            }
          },
        };
      } catch (error) {
        gate.leave();
        throw error;
      }
    };
    admin = context.admin;
    const bounded: LabelContext = {
      ...context,
      service: async () => throttledService(await service(), take, leaseMs),
      push: { ...context.push, summary: "batched", isDevelopmentStore: jobPlan(deps, bulkJobId, context.admin) },
    };
    const order = openOrderDraft(item, deps.now?.() ?? new Date()) ?? undefined;
    const result = await labelOrder(bounded, { orderId, order });
    // Sender per location (decision 0115): an order shipping from several locations gets one label per location.
    outcome = result.locations ? (await labelEveryLocation(bounded, orderId, result, order)).outcome : result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (lastAttempt) {
      await settle("REFUSED", { reasonJson: JSON.stringify({ code: "unexpected_error", params: { message: message.slice(0, 300) } } satisfies Reason) });
      return "REFUSED";
    }
    const delayMs = Math.min(60_000, 1000 * 2 ** Math.min(6, run.attempt - 1));
    await settle("QUEUED", { reasonJson: JSON.stringify({ code: "retry_waiting", params: { seconds: String(Math.ceil(delayMs / 1000)), cause: message.slice(0, 120) } } satisfies Reason) });
    throw new RetryableJobError(`bulk item ${item.id}: ${message}`, delayMs);
  }

  switch (outcome.kind) {
    case "labelled": {
      const predates = outcome.label.createdAt.getTime() < job.createdAt.getTime();
      const reason = outcome.fulfillment?.status === "failed" ? outcome.fulfillment.reason : null;
      await settle("LABELLED", {
        labelId: outcome.label.id,
        trackingNumber: outcome.label.trackingNumber,
        alreadyLabelled: outcome.alreadyLabelled && predates,
        reasonJson: reason ? JSON.stringify(reason) : null,
      });
      return "LABELLED";
    }
    case "blocked":
      await settle("BLOCKED", { reasonJson: JSON.stringify(blockedReason(outcome.problems)) });
      return "BLOCKED";
    case "pending":
      await settle("PENDING", { attemptId: outcome.attempt?.id ?? null, reasonJson: JSON.stringify(outcome.reason) });
      return "PENDING";
    case "refused": {
      if (!outcome.retryable || lastAttempt) {
        await settle("REFUSED", { reasonJson: JSON.stringify(refusalReason(outcome, item.orderName)) });
        return "REFUSED";
      }
      if (outcome.reason.code === "shopify_busy") {
        // Shopify's budget: wait and resume, never a failure of the item.
        const delayMs = retrySeconds(outcome.reason) * 1000;
        await settle("QUEUED", { reasonJson: JSON.stringify({ code: "retry_waiting", params: { seconds: String(retrySeconds(outcome.reason)), cause: "Shopify" } } satisfies Reason) });
        throw new RetryableJobError(`bulk item ${item.id}: Shopify is busy`, delayMs);
      }
      if (run.signal?.aborted) {
        // Stopping: nothing was sent; the next run (this instance restarted, or another) takes the item again.
        await settle("QUEUED", { reasonJson: null });
        throw new RetryableJobError(`bulk item ${item.id}: stopped before its purchase`, 1000);
      }
      if (item.refusals >= ITEM_REFUSAL_RETRIES) {
        await settle("REFUSED", { reasonJson: JSON.stringify({ code: "service_retries_exhausted", params: { tries: String(item.refusals + 1) } } satisfies Reason) });
        return "REFUSED";
      }
      const delayMs = (deps.refusalDelayMs ?? ((n: number) => Math.min(60_000, 2000 * 2 ** (n - 1))))(item.refusals + 1);
      await settle("QUEUED", {
        refused: true,
        reasonJson: JSON.stringify({ code: "retry_waiting", params: { seconds: String(Math.ceil(delayMs / 1000)), cause: "429" } } satisfies Reason),
      });
      throw new RetryableJobError(`bulk item ${item.id}: the label service asked to slow down`, delayMs);
    }
  }
}

/**
 * Why the service refused an item, for the progress page: the fields it named, in the merchant's words with what to do
 * (as the order page shows them), rather than its own French text with the request's field paths. A refusal naming no
 * field the app knows keeps the outcome's reason.
 */
export function refusalReason(outcome: Extract<LabelOrderOutcome, { kind: "refused" }>, orderName: string): Reason {
  const body = outcome.error?.body;
  if (!body) return outcome.reason;
  const { fieldErrors } = extractServiceMessage(body);
  const problems = serviceFieldProblems(fieldErrors, orderName);
  const first = problems[0];
  if (!first) return outcome.reason;
  const reason = blockedReason(problems);
  // The service's own words about that field (never its field path), quoted; the fix says how a job's item is redone.
  const said = (fieldErrors?.[first.path] ?? []).join(" ; ").slice(0, 200);
  const params = reason.params ?? {};
  reason.params = {
    ...params,
    messageEn: `${params.messageEn ?? ""}${said ? ` The label service said: “${said}”.` : ""}`,
    messageFr: `${params.messageFr ?? ""}${said ? ` Le service d'étiquettes a répondu : « ${said} ».` : ""}`,
    fixEn: "Correct this value in the order in Shopify, then click Retry failed (or open the order and create its label with a corrected value).",
    fixFr: "Corrigez cette valeur dans la commande sur Shopify, puis cliquez sur « Relancer les échecs » (ou ouvrez la commande et créez son étiquette avec une valeur corrigée).",
  };
  return reason;
}

/** How often an instance looks for the shop's due summaries at least, while its items finish: well within the minute
 * after which the background pass writes a waiting summary on its own, one label per call (decision 0185). */
export const SUMMARY_LOOK_EVERY_MS = 20_000;

/**
 * Whether an item that just finished should look for the shop's due summaries. A look reads the due labels (a
 * statement) and writes full batches of 25, or everything when no item of the job is left; most looks found less than
 * a batch and wrote nothing. So an item looks when:
 * - no item of its job is left (the rest are written then);
 * - this instance has not looked yet (it just started: summaries may be waiting from before);
 * - a batch could be full by this instance's count: what its last look left waiting plus the items it labelled since;
 * - or SUMMARY_LOOK_EVERY_MS have passed since its last look. Items of other instances, and an order's second label
 *   (an order shipping from several locations), add due summaries this count does not see; those wait this long at
 *   most, and the look writes every full batch it finds.
 */
function summariesWorthALook(deps: BulkRunDeps, shop: string, labelled: boolean, itemsLeft: boolean): boolean {
  const tallies = stateOf(deps).summaryTallies;
  const now = deps.now?.().getTime() ?? Date.now();
  const tally = tallies.get(shop);
  if (tally && labelled) tally.count += 1;
  if (itemsLeft && tally && tally.count < METAFIELDS_PER_SET && now - tally.lookedAt < SUMMARY_LOOK_EVERY_MS) return false;
  // Counted again from this look: items that finish during it add theirs, and the look adds what it leaves waiting.
  tallies.set(shop, { lookedAt: now, count: 0 });
  return true;
}

/**
 * The shop's deferred order summaries: full batches of 25 now, and everything once no item of this job is left to
 * run (the last one to finish writes the rest). Anything missed (a crash in between) is the background pass's.
 */
async function flushSummaries(deps: BulkRunDeps, admin: AdminGraphqlClient, shop: string, itemsLeft: boolean): Promise<void> {
  try {
    const { waiting } = await flushOrderSummaries(deps.db, admin, shop, { all: !itemsLeft });
    const tally = stateOf(deps).summaryTallies.get(shop);
    if (tally) tally.count += waiting;
  } catch {
    // The summaries stay due; the background pass writes them.
  }
}
