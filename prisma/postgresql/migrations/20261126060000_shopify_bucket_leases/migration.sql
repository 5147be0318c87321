-- The points a Shopify budget statement leased to its process, read back by RETURNING (decision 0193).
ALTER TABLE "ShopifyBucket" ADD COLUMN "leased" DOUBLE PRECISION NOT NULL DEFAULT 0;
