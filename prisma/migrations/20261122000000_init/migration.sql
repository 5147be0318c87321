-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "environment" TEXT NOT NULL DEFAULT 'staging',
    "productionConfirmedAt" DATETIME,
    "productionConfirmedBy" TEXT,
    "settingsJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "LabelServiceAccount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordCiphertext" TEXT NOT NULL,
    "keyVersion" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PurchaseAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "customReference" TEXT NOT NULL,
    "orderSlot" TEXT,
    "labelIndex" INTEGER NOT NULL DEFAULT 1,
    "fulfillmentOrderId" TEXT,
    "status" TEXT NOT NULL,
    "requestJson" TEXT NOT NULL,
    "errorJson" TEXT,
    "reconcileCount" INTEGER NOT NULL DEFAULT 0,
    "nextReconcileAt" DATETIME,
    "labelId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PurchaseAttempt_labelId_fkey" FOREIGN KEY ("labelId") REFERENCES "Label" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Label" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "customReference" TEXT NOT NULL,
    "serviceLabelId" TEXT NOT NULL,
    "trackingNumber" TEXT NOT NULL,
    "trackingUrl" TEXT NOT NULL,
    "labelUrl" TEXT NOT NULL,
    "carrierName" TEXT NOT NULL,
    "carrierServiceName" TEXT NOT NULL,
    "labelFormat" TEXT NOT NULL,
    "requestSnapshotJson" TEXT NOT NULL,
    "fulfillmentOrderId" TEXT,
    "fulfillmentStatus" TEXT NOT NULL DEFAULT 'PENDING',
    "fulfillmentId" TEXT,
    "fulfillmentError" TEXT,
    "metafieldWritten" BOOLEAN NOT NULL DEFAULT false,
    "redactedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ReferenceCounter" (
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "value" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "day")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "webhookId" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "LabelServiceAccount_shop_environment_key" ON "LabelServiceAccount"("shop", "environment");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseAttempt_orderSlot_key" ON "PurchaseAttempt"("orderSlot");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseAttempt_labelId_key" ON "PurchaseAttempt"("labelId");

-- CreateIndex
CREATE INDEX "PurchaseAttempt_shop_orderId_idx" ON "PurchaseAttempt"("shop", "orderId");

-- CreateIndex
CREATE INDEX "PurchaseAttempt_status_nextReconcileAt_idx" ON "PurchaseAttempt"("status", "nextReconcileAt");

-- CreateIndex
CREATE UNIQUE INDEX "PurchaseAttempt_shop_environment_customReference_key" ON "PurchaseAttempt"("shop", "environment", "customReference");

-- CreateIndex
CREATE INDEX "Label_shop_orderId_idx" ON "Label"("shop", "orderId");

-- CreateIndex
CREATE INDEX "Label_shop_createdAt_idx" ON "Label"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Label_shop_environment_serviceLabelId_key" ON "Label"("shop", "environment", "serviceLabelId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

