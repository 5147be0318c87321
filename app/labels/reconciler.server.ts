/**
 * Background reconciliation of purchases whose outcome is unknown: each due attempt is looked up in the service's
 * label list (backoff in purchase.server.ts); a found label is stored and pushed to Shopify. Runs in every app
 * process; the unique label slot and the fulfillment claim make concurrent runs harmless.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import type { LabelEnvironment } from "./environments";
import { pushLabelToShopify, unwrittenSummaries } from "./fulfill.server";
import { dueReconciliations, reconcileAttempt, type LabelServicePort } from "./purchase.server";

export interface ReconcilerDeps {
  db: PrismaClient;
  serviceFor: (shop: string, environment: LabelEnvironment) => Promise<LabelServicePort>;
  adminFor: (shop: string) => Promise<AdminGraphqlClient>;
  notifyCustomerFor: (shop: string) => Promise<boolean>;
  now?: () => Date;
  log?: (message: string) => void;
}

/** One pass over the due attempts. Returns how each ended. */
export async function runDueReconciliations(deps: ReconcilerDeps): Promise<Record<string, string>> {
  const now = deps.now ?? (() => new Date());
  const outcomes: Record<string, string> = {};
  for (const due of await dueReconciliations(deps.db, now())) {
    try {
      const service = await deps.serviceFor(due.shop, due.environment as LabelEnvironment).catch(unavailable);
      const result = await reconcileAttempt({ db: deps.db, service, now }, due.shop, due.id);
      outcomes[due.id] = result.status;
      if (result.status === "created") {
        const admin = await deps.adminFor(due.shop);
        const pushed = await pushLabelToShopify({ db: deps.db, admin }, { shop: due.shop, labelId: result.label.id, notifyCustomer: await deps.notifyCustomerFor(due.shop) });
        outcomes[due.id] = `created, fulfillment ${pushed.status}`;
      }
    } catch (error) {
      outcomes[due.id] = `error: ${error instanceof Error ? error.message : String(error)}`;
      deps.log?.(`reconciliation of attempt ${due.id} failed: ${outcomes[due.id]}`);
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

let timer: ReturnType<typeof setInterval> | undefined;

/** Starts the periodic pass once per process (idempotent). The timer never keeps the process alive. */
export function startReconciler(deps: ReconcilerDeps, intervalMs = 5_000): void {
  if (timer) return;
  let running = false;
  timer = setInterval(() => {
    if (running) return;
    running = true;
    runDueReconciliations(deps)
      .catch((error: unknown) => deps.log?.(`reconciler pass failed: ${String(error)}`))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
}
