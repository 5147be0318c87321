-- AlterTable
ALTER TABLE "Label" ADD COLUMN     "printedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "PrintFile" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "format" TEXT NOT NULL,
    "labelIdsJson" TEXT NOT NULL,
    "labelCount" INTEGER NOT NULL,
    "content" BYTEA,
    "byteSize" INTEGER NOT NULL DEFAULT 0,
    "errorJson" TEXT,
    "downloadToken" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PrintFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PrintFile_shop_createdAt_idx" ON "PrintFile"("shop", "createdAt");

-- CreateIndex
CREATE INDEX "PrintFile_createdAt_idx" ON "PrintFile"("createdAt");

