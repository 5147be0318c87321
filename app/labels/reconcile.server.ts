/**
 * Background reconciliation, one pass every RECONCILE_INTERVAL_MS across all app instances (the recurring job
 * app/jobs/handlers/reconcile-labels.job.ts, one run at a time):
 *  - purchases whose outcome is unknown: each due attempt is looked up in the service's label list (backoff in
 *    purchase.server.ts); a found label is stored and pushed to Shopify;
 *  - labels whose Shopify step is stuck (claimed or due, no outcome past FULFILLMENT_CLAIM_TIMEOUT_MS: the process
 *    died between storing the label and recording the fulfillment) are pushed again, adopting a fulfillment that
 *    already carries the tracking number;
 *  - order summaries whose write failed are written again.
 * The unique label slot and the fulfillment claim make concurrent runs harmless anyway. The first pass starts with
 * the process (app/jobs/boot.server.ts), not with a request.
 */
import { reconcileTimings, type ReconcileTimings } from "../config.server";
import type { PrismaClient } from "../generated/prisma/client";
import type { ShopClients } from "./context.server";
import type { LabelEnvironment } from "./environments";
import { pushLabelToShopify, stuckFulfillments, unwrittenSummaries } from "./fulfill.server";
import type { LabelServicePort } from "./purchase.server";
import { dueReconciliations, reconcileAttempt } from "./settle.server";

/** The per-shop clients come from the context module (backgroundShopClients); tests give doubles. */
export interface ReconcilerDeps extends ShopClients {
  db: PrismaClient;
  now?: () => Date;
  log?: (message: string) => void;
  /** Defaults to the process configuration (reconcileTimings()). */
  timings?: ReconcileTimings;
}

/** One pass over the due attempts. Returns how each ended. */
export async function runDueReconciliations(given: ReconcilerDeps): Promise<Record<string, string>> {
  const deps = { ...given, ...oncePerPass(given) };
  const now = deps.now ?? (() => new Date());
  const timings = deps.timings ?? reconcileTimings();
  const outcomes: Record<string, string> = {};
  for (const due of await dueReconciliations(deps.db, now(), 20, timings)) {
    try {
      const service = await deps.serviceFor(due.shop, due.environment as LabelEnvironment).catch(unavailable);
      const result = await reconcileAttempt({ db: deps.db, service, now, timings }, due.shop, due.id);
      outcomes[due.id] = result.status;
      if (result.status === "created") {
        const admin = await deps.adminFor(due.shop);
        const pushed = await pushLabelToShopify({ db: deps.db, admin, now, timings }, { shop: due.shop, labelId: result.label.id, notifyCustomer: await deps.notifyCustomerFor(due.shop) });
        outcomes[due.id] = `created, fulfillment ${pushed.status}`;
      }
    } catch (error) {
      outcomes[due.id] = `error: ${error instanceof Error ? error.message : String(error)}`;
      deps.log?.(`reconciliation of attempt ${due.id} failed: ${outcomes[due.id]}`);
    }
  }
  // Labels stored but never pushed to Shopify (the process died in between): pushed again, once the claim is stale.
  for (const stuck of await stuckFulfillments(deps.db, now(), 20, timings)) {
    try {
      const admin = await deps.adminFor(stuck.shop);
      const pushed = await pushLabelToShopify({ db: deps.db, admin, now, timings }, { shop: stuck.shop, labelId: stuck.id, notifyCustomer: await deps.notifyCustomerFor(stuck.shop) });
      outcomes[stuck.id] = `fulfillment ${pushed.status}${pushed.status === "created" && pushed.adopted ? " (adopted)" : ""}`;
    } catch (error) {
      outcomes[stuck.id] = `error: ${error instanceof Error ? error.message : String(error)}`;
      deps.log?.(`Shopify step of label ${stuck.id} failed: ${outcomes[stuck.id]}`);
      // Waits another claim timeout instead of being tried (and failing) on every pass ahead of the others.
      await deps.db.label
        .updateMany({ where: { id: stuck.id, fulfillmentStatus: stuck.fulfillmentStatus }, data: { fulfillmentStatus: stuck.fulfillmentStatus } })
        .catch(() => undefined);
    }
  }
  // Order summaries whose write failed after the fulfillment was made: written again (nothing else is sent).
  for (const label of await unwrittenSummaries(deps.db, now())) {
    try {
      const admin = await deps.adminFor(label.shop);
      const pushed = await pushLabelToShopify({ db: deps.db, admin }, { shop: label.shop, labelId: label.id, notifyCustomer: false });
      outcomes[label.id] = pushed.status === "created" && pushed.label.metafieldWritten ? "summary written" : "summary still unwritten";
    } catch (error) {
      outcomes[label.id] = `error: ${error instanceof Error ? error.message : String(error)}`;
      deps.log?.(`order summary of label ${label.id} failed: ${outcomes[label.id]}`);
    }
  }
  return outcomes;
}

/** Each shop's clients and setting are built once per pass, not once per attempt or label (a failure is not kept). */
function oncePerPass(clients: ShopClients): ShopClients {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, build: () => Promise<T>): Promise<T> => {
    let value = memo.get(key) as Promise<T> | undefined;
    if (!value) {
      value = build();
      memo.set(key, value);
      value.catch(() => memo.delete(key));
    }
    return value;
  };
  return {
    serviceFor: (shop, environment) => once(`service ${shop} ${environment}`, () => clients.serviceFor(shop, environment)),
    adminFor: (shop) => once(`admin ${shop}`, () => clients.adminFor(shop)),
    notifyCustomerFor: (shop) => once(`notify ${shop}`, () => clients.notifyCustomerFor(shop)),
  };
}

/**
 * No client (account deleted, production URL unset): each lookup fails with the reason, so the attempt still
 * follows its backoff to "needs review" instead of being retried every pass forever.
 */
function unavailable(error: unknown): LabelServicePort {
  const reason = `no label-service client: ${error instanceof Error ? error.message : String(error)}`;
  return {
    generateLabel: () => Promise.reject(new Error(reason)),
    lookUpLabelByReference: () => Promise.reject(new Error(reason)),
  };
}
