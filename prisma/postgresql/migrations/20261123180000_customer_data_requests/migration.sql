-- CreateTable
CREATE TABLE "CustomerDataRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "requestKey" TEXT NOT NULL,
    "customerId" TEXT,
    "orderIdsJson" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handedOverAt" TIMESTAMP(3),

    CONSTRAINT "CustomerDataRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CustomerDataRequest_shop_receivedAt_idx" ON "CustomerDataRequest"("shop", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerDataRequest_shop_requestKey_key" ON "CustomerDataRequest"("shop", "requestKey");

