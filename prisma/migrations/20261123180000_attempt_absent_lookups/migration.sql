-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PurchaseAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "customReference" TEXT NOT NULL,
    "orderSlot" TEXT,
    "labelIndex" INTEGER NOT NULL DEFAULT 1,
    "fulfillmentOrderId" TEXT,
    "status" TEXT NOT NULL,
    "requestJson" TEXT NOT NULL,
    "errorJson" TEXT,
    "reconcileCount" INTEGER NOT NULL DEFAULT 0,
    "absentLookups" INTEGER NOT NULL DEFAULT 0,
    "lastLookup" TEXT,
    "lastLookupAt" DATETIME,
    "nextReconcileAt" DATETIME,
    "labelId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PurchaseAttempt_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_PurchaseAttempt" ("createdAt", "customReference", "environment", "errorJson", "fulfillmentOrderId", "id", "labelId", "labelIndex", "nextReconcileAt", "orderId", "orderName", "orderSlot", "reconcileCount", "requestJson", "shop", "status", "updatedAt") SELECT "createdAt", "customReference", "environment", "errorJson", "fulfillmentOrderId", "id", "labelId", "labelIndex", "nextReconcileAt", "orderId", "orderName", "orderSlot", "reconcileCount", "requestJson", "shop", "status", "updatedAt" FROM "PurchaseAttempt";
DROP TABLE "PurchaseAttempt";
ALTER TABLE "new_PurchaseAttempt" RENAME TO "PurchaseAttempt";
CREATE UNIQUE INDEX "PurchaseAttempt_orderSlot_key" ON "PurchaseAttempt"("orderSlot");
CREATE UNIQUE INDEX "PurchaseAttempt_labelId_key" ON "PurchaseAttempt"("labelId");
CREATE INDEX "PurchaseAttempt_shop_orderId_idx" ON "PurchaseAttempt"("shop", "orderId");
CREATE INDEX "PurchaseAttempt_status_nextReconcileAt_idx" ON "PurchaseAttempt"("status", "nextReconcileAt");
CREATE UNIQUE INDEX "PurchaseAttempt_shop_environment_customReference_key" ON "PurchaseAttempt"("shop", "environment", "customReference");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

