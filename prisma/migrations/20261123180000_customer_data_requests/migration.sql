-- CreateTable
CREATE TABLE "CustomerDataRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "requestKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orderIdsJson" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handedOverAt" DATETIME
);

-- CreateIndex
CREATE INDEX "CustomerDataRequest_shop_receivedAt_idx" ON "CustomerDataRequest"("shop", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerDataRequest_shop_requestKey_key" ON "CustomerDataRequest"("shop", "requestKey");

