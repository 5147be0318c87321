-- CreateTable
CREATE TABLE "ShopifyBucket" (
    "shop" TEXT NOT NULL,
    "available" DOUBLE PRECISION NOT NULL,
    "maximum" DOUBLE PRECISION NOT NULL,
    "restoreRate" DOUBLE PRECISION NOT NULL,
    "atMs" BIGINT NOT NULL,
    "pending" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "pendingUntilMs" BIGINT NOT NULL DEFAULT 0,
    "observedAtMs" BIGINT NOT NULL DEFAULT 0,
    "settles" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ShopifyBucket_pkey" PRIMARY KEY ("shop")
);

