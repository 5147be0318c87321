-- A bulk job's item keeps the order its preflight read (sealed), used while fresh instead of reading it again (decision 0184).
ALTER TABLE "BulkJobItem" ADD COLUMN "orderSealed" TEXT;
ALTER TABLE "BulkJobItem" ADD COLUMN "orderReadAt" TIMESTAMP(3);
-- A label whose order summary waits for a batched metafieldsSet (decision 0185).
ALTER TABLE "Label" ADD COLUMN "summaryDueAt" TIMESTAMP(3);
-- A bulk preflight's reads, kept a few minutes for the job's creation (decision 0184).
CREATE TABLE "PreflightRead" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderSealed" TEXT NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PreflightRead_pkey" PRIMARY KEY ("shop","orderId")
);
CREATE INDEX "PreflightRead_readAt_idx" ON "PreflightRead"("readAt");
