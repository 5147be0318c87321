/**
 * Reading a connection to its end after a small first page. Follow-up pages grow with what has been read (the size
 * of everything read so far, up to `maxPageSize`), so an order a little over the first page costs one small call and
 * a very large one a few calls, each requesting about what it returns.
 */
import { z } from "zod";
import { AdminApiError } from "../admin-client";

export const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() });
export type PageInfo = z.infer<typeof pageInfoSchema>;

export interface Page<Node> {
  nodes: Node[];
  pageInfo: PageInfo;
}

/** However large an order, reading one connection stops with an error after this many pages (never truncates). */
export const MAX_FOLLOW_UP_PAGES = 100;

export async function readToEnd<Node>(
  first: Page<Node>,
  what: string,
  fetchPage: (after: string, size: number) => Promise<Page<Node> | null>,
  maxPageSize: number,
): Promise<Node[]> {
  const nodes = [...first.nodes];
  let pageInfo = first.pageInfo;
  for (let pages = 0; pageInfo.hasNextPage; pages += 1) {
    if (!pageInfo.endCursor) throw new AdminApiError("shape", `${what}: Shopify said there is more but gave no cursor`);
    if (pages >= MAX_FOLLOW_UP_PAGES) throw new AdminApiError("shape", `${what}: more than ${MAX_FOLLOW_UP_PAGES} pages; not read`);
    const size = Math.min(maxPageSize, Math.max(1, nodes.length));
    const page = await fetchPage(pageInfo.endCursor, size);
    if (!page) throw new AdminApiError("shape", `${what}: the record disappeared while its pages were read`);
    nodes.push(...page.nodes);
    pageInfo = page.pageInfo;
  }
  return nodes;
}
