/** The bulk item handler's real clients, for the job queue's boot (app/jobs/boot.server.ts). */
import { moduleLogger } from "../observability/logger.server";
import { config } from "../config.server";
import db from "../db.server";
import { databaseKind } from "../db-url";
import { createSemaphore } from "../jobs/semaphore.server";
import { createShopClientCache, labelContextForShop } from "../labels/context.server";
import type { BulkRunDeps } from "./run-item.server";

export function bulkRunDeps(databaseUrl: string): BulkRunDeps {
  // The shop's offline Admin client and label-service client, kept a while for the items that follow (decision 0225).
  const clients = createShopClientCache();
  return {
    db,
    semaphore: createSemaphore({ db, dialect: databaseKind(databaseUrl) }),
    maxConcurrency: config().LABEL_SERVICE_MAX_CONCURRENCY,
    // The job's environment and settings, frozen at its creation; Shopify may be waited on longer than on a page.
    contextFor: (shop, frozen) => labelContextForShop(shop, { environment: frozen.environment, settings: frozen.settings, database: frozen.database, clients }),
    log: (message) => moduleLogger("bulk").warn(message),
  };
}
