/**
 * The download of one print file. Allowed with the file's own token (the link the app hands out: a browser tab or the
 * admin's print `src` opens it without a session token), or for the authenticated shop that owns it. Anything else
 * is answered like a file that does not exist. A download records when each of its labels was printed.
 */
import { timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { CONTENT_TYPES, printFileName, printKindOf } from "./formats";
import { PRINT_FILE_TTL_MS } from "./print.server";
import { voidedProblem, voidLabelsAmong } from "./withdraw.server";

export type DownloadOutcome =
  | { kind: "file"; bytes: Uint8Array; contentType: string; fileName: string }
  | { kind: "pending" }
  | { kind: "failed"; errorJson: string | null }
  | { kind: "notFound" };

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function openPrintFile(
  db: PrismaClient,
  id: string,
  access: { token?: string | null; shop?: string | null },
  now: Date = new Date(),
): Promise<DownloadOutcome> {
  const row = await db.printFile.findUnique({ where: { id } });
  if (!row || row.createdAt.getTime() < now.getTime() - PRINT_FILE_TTL_MS) return { kind: "notFound" };
  const allowed = (access.token ? sameToken(access.token, row.downloadToken) : false) || (access.shop ? access.shop === row.shop : false);
  if (!allowed) return { kind: "notFound" };
  if (row.status === "PENDING") return { kind: "pending" };
  if (row.status !== "READY" || !row.content) return { kind: "failed", errorJson: row.errorJson };
  const labelIds = JSON.parse(row.labelIdsJson) as string[];
  // A label voided since the file was built (a build that raced the void's withdrawal): never handed out again.
  const voided = await voidLabelsAmong(db, row.shop, labelIds);
  if (voided.length > 0) {
    const errorJson = JSON.stringify(voidedProblem(voided.map((label) => label.orderName)));
    await db.printFile.update({ where: { id: row.id }, data: { status: "FAILED", content: null, byteSize: 0, errorJson } });
    return { kind: "failed", errorJson };
  }
  await db.label.updateMany({ where: { shop: row.shop, id: { in: labelIds } }, data: { printedAt: now } });
  return {
    kind: "file",
    bytes: new Uint8Array(row.content),
    contentType: CONTENT_TYPES[printKindOf(row.format)],
    fileName: printFileName(row.format, row.labelCount, row.createdAt),
  };
}

/** The HTTP answer of a ready file: always a download (attachment), never rendered as text. */
export function fileResponse(outcome: Extract<DownloadOutcome, { kind: "file" }>, disposition: "attachment" | "inline" = "attachment"): Response {
  // Thermal files are always attachments: a tab would show their printer code as text.
  const mode = outcome.contentType === "application/pdf" ? disposition : "attachment";
  return new Response(Buffer.from(outcome.bytes), {
    status: 200,
    headers: {
      "Content-Type": outcome.contentType,
      "Content-Length": String(outcome.bytes.byteLength),
      "Content-Disposition": `${mode}; filename="${outcome.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
