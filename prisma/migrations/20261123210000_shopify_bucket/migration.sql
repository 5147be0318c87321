-- CreateTable
CREATE TABLE "ShopifyBucket" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "available" REAL NOT NULL,
    "maximum" REAL NOT NULL,
    "restoreRate" REAL NOT NULL,
    "atMs" BIGINT NOT NULL,
    "pending" REAL NOT NULL DEFAULT 0,
    "pendingUntilMs" BIGINT NOT NULL DEFAULT 0,
    "observedAtMs" BIGINT NOT NULL DEFAULT 0,
    "settles" INTEGER NOT NULL DEFAULT 0
);

