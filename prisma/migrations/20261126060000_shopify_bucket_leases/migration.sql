-- The points a Shopify budget statement leased to its process, read back by RETURNING (decision 0193).
ALTER TABLE "ShopifyBucket" ADD COLUMN "leased" REAL NOT NULL DEFAULT 0;
