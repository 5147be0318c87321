-- Lookups that ran once per bulk item and read every row of the job or of the shop's labels (decision 0204).
CREATE INDEX "Label_shop_summaryDueAt_idx" ON "Label"("shop", "summaryDueAt");
CREATE INDEX "BulkJobItem_jobId_status_idx" ON "BulkJobItem"("jobId", "status");
