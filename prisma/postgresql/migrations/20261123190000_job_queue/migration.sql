-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "activeKey" TEXT,
    "runAfterMs" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL,
    "backoffMs" INTEGER NOT NULL,
    "claimToken" TEXT,
    "leaseUntilMs" BIGINT,
    "lastError" TEXT,
    "createdAtMs" BIGINT NOT NULL,
    "finishedAtMs" BIGINT,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobSchedule" (
    "name" TEXT NOT NULL,
    "intervalMs" INTEGER NOT NULL,
    "nextRunMs" BIGINT NOT NULL,

    CONSTRAINT "JobSchedule_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "SemaphoreSlot" (
    "key" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "leaseUntilMs" BIGINT NOT NULL,

    CONSTRAINT "SemaphoreSlot_pkey" PRIMARY KEY ("key","slot")
);

-- CreateIndex
CREATE UNIQUE INDEX "Job_activeKey_key" ON "Job"("activeKey");

-- CreateIndex
CREATE INDEX "Job_name_state_runAfterMs_idx" ON "Job"("name", "state", "runAfterMs");

-- CreateIndex
CREATE INDEX "Job_state_finishedAtMs_idx" ON "Job"("state", "finishedAtMs");

