-- A purchase attempt's location (an order labelled per location, decision 0115) in its own column, read instead of
-- being parsed from the order slot. Existing attempts that still hold a location's slot get it from there.
ALTER TABLE "PurchaseAttempt" ADD COLUMN "locationId" TEXT;
UPDATE "PurchaseAttempt"
SET "locationId" = substring("orderSlot" from position('|gid://shopify/Location/' in "orderSlot") + 1)
WHERE "orderSlot" LIKE '%|gid://shopify/Location/%';
