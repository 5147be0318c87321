/** The print request's body (POST /api/print and the app's Print buttons), checked with zod. */
import { z } from "zod";

const orderGid = z.string().regex(/^gid:\/\/shopify\/Order\/[0-9]+$/, "expected an order id like gid://shopify/Order/1001");
const ids = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(1000);
const printOrder = z.enum(["orderName", "sku"]).optional();

export const printRequestSchema = z.union([
  z.strictObject({ orderIds: ids(orderGid), order: printOrder }),
  z.strictObject({ labelIds: ids(z.string().min(1).max(64)), order: printOrder }),
  z.strictObject({ bulkJobId: z.string().min(1).max(64), unprintedOnly: z.boolean().optional(), order: printOrder }),
  z.strictObject({ unprinted: z.literal(true), order: printOrder }),
]);
export type PrintRequest = z.infer<typeof printRequestSchema>;
