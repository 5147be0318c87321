/**
 * The reconciler's real clients, for the recurring job (app/jobs/handlers/reconcile-labels.job.ts) that the job
 * queue's boot (app/jobs/boot.server.ts) registers. Built by the context module, like every labelling caller's.
 */
import { moduleLogger } from "../observability/logger.server";
import db from "../db.server";
import { backgroundShopClients } from "./context.server";
import type { ReconcilerDeps } from "./reconcile.server";

export function reconcilerDeps(): ReconcilerDeps {
  return {
    db,
    ...backgroundShopClients(db),
    log: (message) => moduleLogger("reconciler").warn(message),
  };
}
