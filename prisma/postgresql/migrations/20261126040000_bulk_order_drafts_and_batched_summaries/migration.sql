-- A bulk job's item keeps the order its preflight read (sealed), used while fresh instead of reading it again (decision 0184).
ALTER TABLE "BulkJobItem" ADD COLUMN "orderSealed" TEXT;
ALTER TABLE "BulkJobItem" ADD COLUMN "orderReadAt" TIMESTAMP(3);
-- A label whose order summary waits for a batched metafieldsSet (decision 0185).
ALTER TABLE "Label" ADD COLUMN "summaryDueAt" TIMESTAMP(3);
