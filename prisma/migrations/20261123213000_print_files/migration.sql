-- AlterTable
ALTER TABLE "Label" ADD COLUMN "printedAt" DATETIME;

-- CreateTable
CREATE TABLE "PrintFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "format" TEXT NOT NULL,
    "labelIdsJson" TEXT NOT NULL,
    "labelCount" INTEGER NOT NULL,
    "content" BLOB,
    "byteSize" INTEGER NOT NULL DEFAULT 0,
    "errorJson" TEXT,
    "downloadToken" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "PrintFile_shop_createdAt_idx" ON "PrintFile"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "PrintFile_createdAt_idx" ON "PrintFile"("createdAt");

