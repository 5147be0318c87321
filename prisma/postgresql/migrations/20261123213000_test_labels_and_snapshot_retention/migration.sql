-- Staging labels reach Shopify only when the merchant turns this on (a development store only, decision 0170).
ALTER TABLE "ShopSettings" ADD COLUMN "fulfilTestLabels" BOOLEAN NOT NULL DEFAULT false;
-- When the recipient was removed from the request of an attempt (retention or customers/redact, decision 0172).
ALTER TABLE "PurchaseAttempt" ADD COLUMN "redactedAt" TIMESTAMP(3);
