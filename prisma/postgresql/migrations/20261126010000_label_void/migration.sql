-- Void a label (decision 0112): the intent, its outcome and the last stop's reason.
ALTER TABLE "Label" ADD COLUMN "voidState" TEXT,
ADD COLUMN "voidRequestedAt" TIMESTAMP(3),
ADD COLUMN "voidedAt" TIMESTAMP(3),
ADD COLUMN "voidError" TEXT;
