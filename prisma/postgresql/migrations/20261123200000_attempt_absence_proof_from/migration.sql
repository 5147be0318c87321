-- A purchase the service did not answer may be charged late: lookups before this time never prove absence.
ALTER TABLE "PurchaseAttempt" ADD COLUMN "absenceProofFrom" TIMESTAMP(3);
