-- AlterTable
ALTER TABLE "PurchaseAttempt" ADD COLUMN     "absentLookups" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastLookup" TEXT,
ADD COLUMN     "lastLookupAt" TIMESTAMP(3);

