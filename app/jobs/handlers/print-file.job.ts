/**
 * Builds one large print file (more than INLINE_LIMIT labels) off the request: fetches its label files, merges them
 * in chunks and stores the result on the PrintFile row, which the print page then offers. A failure to fetch a label
 * is recorded on the row (naming the order) rather than retried forever: the merchant asks again.
 */
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import type { LabelFileReader } from "../../print/label-files.server";
import { buildPrintFile, PRINT_FILE_JOB } from "../../print/print.server";
import { defineJob, type JobDefinition } from "../registry";

export type PrintJobDeps = { db: PrismaClient; files: LabelFileReader };

export function printFileJob(deps: () => Promise<PrintJobDeps>): JobDefinition {
  return defineJob({
    name: PRINT_FILE_JOB,
    payload: z.object({ printFileId: z.string().min(1) }),
    concurrency: 1, // one merge at a time per instance keeps memory bounded
    retryLimit: 1,
    async handle({ payload }) {
      const { db, files } = await deps();
      await buildPrintFile(db, payload.printFileId, files);
    },
  });
}
