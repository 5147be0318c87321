-- Void a label (decision 0112): the intent, its outcome and the last stop's reason.
ALTER TABLE "Label" ADD COLUMN "voidState" TEXT;
ALTER TABLE "Label" ADD COLUMN "voidRequestedAt" DATETIME;
ALTER TABLE "Label" ADD COLUMN "voidedAt" DATETIME;
ALTER TABLE "Label" ADD COLUMN "voidError" TEXT;
