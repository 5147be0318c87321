/**
 * Many orders for labels through one bulk operation (`bulkOperationRunQuery`): Shopify runs the query outside the
 * rate limit, so reading a job's orders costs the mutation (10 points) and a few polls instead of ~25–80 points per
 * order. The JSONL result has one line per object; line items and fulfillment orders carry their order's id in
 * `__parentId`, fulfillment order lines their fulfillment order's. They are put back together into exactly the
 * `OrderForLabel` that `fetchOrderForLabel` returns, so the mapper takes either.
 *
 * Asynchronous by nature (a job's preflight, not a page): it polls `bulkOperation(id:)` until COMPLETED, then
 * downloads the file. Shopify runs up to 5 bulk operations per shop at once; a start refused with LIMIT_REACHED or
 * OPERATION_IN_PROGRESS waits and tries again within the time allowed.
 */
import { z } from "zod";
import type { OrdersForLabelBulkPollQuery, OrdersForLabelBulkRunMutation } from "../../types/admin.generated";
import { AdminApiError, realClock, runAdmin, ShopifyBusyError, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";
import { orderForLabelSchema, type OrderForLabel } from "./order-for-label";

/**
 * The same fields as ORDER_FOR_LABEL_QUERY (order-for-label.ts), every connection read whole (a bulk query takes no
 * page sizes). `__SEARCH__` is replaced by the orders' ids (`id:1 OR id:2 …`) as a GraphQL string.
 */
export const ORDERS_FOR_LABEL_BULK_QUERY = `#graphql
  query OrdersForLabelBulk {
    orders(query: "__SEARCH__") {
      edges {
        node {
          id
          name
          email
          phone
          cancelledAt
          displayFulfillmentStatus
          currencyCode
          presentmentCurrencyCode
          shippingAddress {
            firstName
            lastName
            name
            company
            address1
            address2
            city
            zip
            provinceCode
            countryCodeV2
            phone
          }
          tags
          shippingLine {
            title
            code
          }
          currentSubtotalPriceSet {
            shopMoney {
              amount
            }
          }
          totalShippingPriceSet {
            shopMoney {
              amount
              currencyCode
            }
            presentmentMoney {
              amount
              currencyCode
            }
          }
          lineItems {
            edges {
              node {
                id
                title
                name
                sku
                quantity
                currentQuantity
                requiresShipping
                isGiftCard
                priceAfterAllDiscountsBeforeTaxesSet {
                  shopMoney {
                    amount
                    currencyCode
                  }
                  presentmentMoney {
                    amount
                    currencyCode
                  }
                }
                product {
                  id
                }
                variant {
                  id
                  inventoryItem {
                    id
                    harmonizedSystemCode
                    countryCodeOfOrigin
                    requiresShipping
                    measurement {
                      weight {
                        unit
                        value
                      }
                    }
                  }
                }
              }
            }
          }
          fulfillmentOrders {
            edges {
              node {
                id
                status
                deliveryMethod {
                  methodType
                }
                supportedActions {
                  action
                }
                assignedLocation {
                  name
                  countryCode
                  location {
                    id
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

/**
 * The fulfillment orders' lines, by the fulfillment orders' ids: a second bulk query, because Shopify allows
 * connections nested two deep only (orders > fulfillmentOrders > lineItems is three).
 */
export const FULFILLMENT_ORDER_LINES_BULK_QUERY = `#graphql
  query FulfillmentOrderLinesBulk {
    fulfillmentOrders(includeClosed: true, query: "__SEARCH__") {
      edges {
        node {
          id
          lineItems {
            edges {
              node {
                id
                remainingQuantity
                totalQuantity
                lineItem {
                  id
                }
              }
            }
          }
        }
      }
    }
  }
`;

export const ORDERS_FOR_LABEL_BULK_RUN = `#graphql
  mutation OrdersForLabelBulkRun($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: false) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export const ORDERS_FOR_LABEL_BULK_POLL = `#graphql
  query OrdersForLabelBulkPoll($id: ID!) {
    bulkOperation(id: $id) {
      id
      status
      errorCode
      objectCount
      url
    }
  }
`;

const runData = z.object({
  bulkOperationRunQuery: z
    .object({
      bulkOperation: z.object({ id: z.string(), status: z.string() }).nullish(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() })),
    })
    .nullish(),
});
const pollData = z.object({
  bulkOperation: z
    .object({ id: z.string(), status: z.string(), errorCode: z.string().nullish(), objectCount: z.string(), url: z.string().nullish() })
    .nullish(),
});
const _runIsAccepted: MatchesGenerated<OrdersForLabelBulkRunMutation, typeof runData> = true;
const _pollIsAccepted: MatchesGenerated<OrdersForLabelBulkPollQuery, typeof pollData> = true;

/** One JSONL line: any object with an id, and `__parentId` on the nested ones. */
const lineSchema = z.looseObject({ id: z.string(), __parentId: z.string().optional() });

/** At most this many orders per bulk operation (keeps the search string short). */
export const ORDERS_PER_BULK_OPERATION = 250;

/**
 * At most this many chunks are read at once, each one bulk operation at a time: two of the shop's five bulk
 * operations (another job or another app's read may need the rest; a busy shop only makes a chunk wait its turn).
 */
export const BULK_READS_AT_ONCE = 2;

export interface BulkReadOptions {
  /** How long the whole read may take (starting, waiting for a free slot, polling, downloading). Default 10 minutes. */
  timeoutMs?: number;
  /** First wait between polls (default 100 ms); grows by half up to `maxPollMs` (default 2 s). */
  pollMs?: number;
  maxPollMs?: number;
  /** Orders per bulk operation (default ORDERS_PER_BULK_OPERATION). */
  ordersPerOperation?: number;
  /** Hears each chunk's orders as soon as they are read (the preflight starts its service lookups with them). */
  onOrders?: (orders: readonly OrderForLabel[]) => void;
  /** Downloads the result file (default: fetch; the URL is signed, no token is sent). */
  download?: (url: string) => Promise<string>;
}

function legacyId(id: string, type: string): string {
  const match = new RegExp(`^gid://shopify/${type}/(\\d+)$`).exec(id);
  if (!match?.[1]) throw new AdminApiError("shape", `readOrdersForLabel: ${id} is not a ${type} id`);
  return match[1];
}

/** A bulk query for these objects: their ids ORed in Shopify's search syntax, in place of `__SEARCH__`. */
export function bulkQueryFor(template: string, type: "Order" | "FulfillmentOrder", ids: readonly string[]): string {
  const search = ids.map((id) => `id:${legacyId(id, type)}`).join(" OR ");
  return template.replace(/^\s*#graphql\s*/, "").replace('"__SEARCH__"', JSON.stringify(search));
}

async function defaultDownload(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new AdminApiError("http", `readOrdersForLabel: the bulk result answered HTTP ${response.status}`);
  return response.text();
}

type Line = z.infer<typeof lineSchema>;

function parseLines(jsonl: string): Line[] {
  const lines: Line[] = [];
  for (const [index, text] of jsonl.split("\n").entries()) {
    if (text.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AdminApiError("shape", `readOrdersForLabel: line ${index + 1} of the bulk result is not JSON`);
    }
    const parsed = lineSchema.safeParse(raw);
    if (!parsed.success) throw new AdminApiError("shape", `readOrdersForLabel: line ${index + 1} of the bulk result has no id`);
    lines.push(parsed.data);
  }
  return lines;
}

const typeOf = (id: string) => /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1];
const unknownParent = (line: Line) => new AdminApiError("shape", `readOrdersForLabel: the bulk result has ${line.id} under an unknown parent ${line.__parentId}`);

/** The fulfillment orders of the orders' result (their lines are read by a second bulk query). */
export function fulfillmentOrderIdsOf(ordersJsonl: string): string[] {
  return parseLines(ordersJsonl).filter((line) => line.__parentId !== undefined && typeOf(line.id) === "FulfillmentOrder").map((line) => line.id);
}

/**
 * Puts the two results back together: line items and fulfillment orders under their order (from the orders'
 * result), fulfillment order lines under their fulfillment order (from the second). Children may come before or
 * after their parent (`groupObjects: false`).
 */
export function assembleOrders(ordersJsonl: string, fulfillmentOrderLinesJsonl = ""): Map<string, OrderForLabel> {
  const orders = new Map<string, { order: Line; lineItems: Line[]; fulfillmentOrders: Line[] }>();
  const lines = parseLines(ordersJsonl);
  for (const line of lines) if (line.__parentId === undefined) orders.set(line.id, { order: line, lineItems: [], fulfillmentOrders: [] });
  const fulfillmentOrderLines = new Map<string, Line[]>();
  for (const line of lines) {
    if (line.__parentId === undefined) continue;
    const parent = orders.get(line.__parentId);
    const type = typeOf(line.id);
    if (!parent) throw unknownParent(line);
    if (type === "LineItem") parent.lineItems.push(line);
    else if (type === "FulfillmentOrder") {
      parent.fulfillmentOrders.push(line);
      fulfillmentOrderLines.set(line.id, []);
    } else throw unknownParent(line);
  }
  for (const line of parseLines(fulfillmentOrderLinesJsonl)) {
    if (line.__parentId === undefined) continue; // the fulfillment order itself, already placed
    const siblings = fulfillmentOrderLines.get(line.__parentId);
    if (!siblings) throw unknownParent(line);
    siblings.push(line);
  }
  const assembled = new Map<string, OrderForLabel>();
  for (const [id, entry] of orders) {
    const order = {
      ...entry.order,
      lineItems: { nodes: entry.lineItems },
      fulfillmentOrders: { nodes: entry.fulfillmentOrders.map((fo) => ({ ...fo, lineItems: { nodes: fulfillmentOrderLines.get(fo.id) ?? [] } })) },
    };
    const parsed = orderForLabelSchema.safeParse(order);
    if (!parsed.success) throw new AdminApiError("shape", `readOrdersForLabel: order ${id} in the bulk result: ${parsed.error.message}`, order);
    assembled.set(id, parsed.data);
  }
  return assembled;
}

const BUSY_CODES = new Set(["LIMIT_REACHED", "OPERATION_IN_PROGRESS"]);

/**
 * A small chunk's operation often completes within a few hundred milliseconds, so the first polls come quickly (a poll
 * costs one point); a long one is polled at most every `maxPollMs`.
 */
const FIRST_POLL_MS = 100;

/** Runs one bulk query to its end and returns its JSONL ("" when nothing matched: Shopify gives no file then). */
async function runBulkQuery(admin: AdminGraphqlClient, query: string, deadline: number, options: BulkReadOptions): Promise<string> {
  const clock = admin.pacing?.clock ?? realClock;
  const remaining = () => deadline - clock.now();
  const maxPoll = options.maxPollMs ?? 2000;
  let wait = options.pollMs ?? FIRST_POLL_MS;
  const nextWait = () => {
    const current = Math.min(wait, Math.max(0, remaining()));
    wait = Math.min(maxPoll, Math.ceil(wait * 1.5));
    return current;
  };

  let operationId: string | undefined;
  while (!operationId) {
    const started = await runAdmin(admin, "OrdersForLabelBulkRun", ORDERS_FOR_LABEL_BULK_RUN, { query }, runData);
    const payload = started.bulkOperationRunQuery;
    const errors = payload?.userErrors ?? [];
    if (errors.length && errors.every((error) => BUSY_CODES.has(error.code ?? ""))) {
      // Five bulk operations already run for this shop: wait for a free one.
      if (remaining() <= 0) throw new ShopifyBusyError("OrdersForLabelBulkRun", maxPoll, errors);
      await clock.sleep(nextWait());
      continue;
    }
    if (errors.length || !payload?.bulkOperation) {
      throw new AdminApiError("user_errors", `OrdersForLabelBulkRun: ${errors.map((error) => error.message).join("; ") || "no bulk operation"}`, errors);
    }
    operationId = payload.bulkOperation.id;
  }
  wait = options.pollMs ?? FIRST_POLL_MS;
  for (;;) {
    const polled = await runAdmin(admin, "OrdersForLabelBulkPoll", ORDERS_FOR_LABEL_BULK_POLL, { id: operationId }, pollData);
    const operation = polled.bulkOperation;
    if (!operation) throw new AdminApiError("shape", `OrdersForLabelBulkPoll: ${operationId} is gone`);
    if (operation.status === "COMPLETED") return operation.url ? (options.download ?? defaultDownload)(operation.url) : "";
    if (operation.status !== "CREATED" && operation.status !== "RUNNING") {
      const reason = operation.errorCode ? ` (${operation.errorCode})` : "";
      throw new AdminApiError("graphql", `OrdersForLabelBulkPoll: the bulk operation ended ${operation.status}${reason}`, operation);
    }
    if (remaining() <= 0) throw new ShopifyBusyError("OrdersForLabelBulkPoll", maxPoll, operation);
    await clock.sleep(nextWait());
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * The orders, read by bulk operations (per 250 orders: one for the orders, then one for their fulfillment orders'
 * lines; BULK_READS_AT_ONCE such chunks at a time): each requested id maps to its `OrderForLabel`, or null when the shop has no such
 * order (as `fetchOrderForLabel` answers null).
 */
export async function readOrdersForLabel(admin: AdminGraphqlClient, orderIds: readonly string[], options: BulkReadOptions = {}): Promise<Map<string, OrderForLabel | null>> {
  const clock = admin.pacing?.clock ?? realClock;
  const deadline = clock.now() + (options.timeoutMs ?? 10 * 60_000);
  const unique = [...new Set(orderIds)];
  const found = new Map<string, OrderForLabel>();
  const perOperation = options.ordersPerOperation ?? ORDERS_PER_BULK_OPERATION;
  const pending = chunks(unique, perOperation);
  let failed = false;
  const reader = async () => {
    for (let chunk = pending.shift(); chunk && !failed; chunk = pending.shift()) {
      try {
        const ordersJsonl = await runBulkQuery(admin, bulkQueryFor(ORDERS_FOR_LABEL_BULK_QUERY, "Order", chunk), deadline, options);
        let linesJsonl = "";
        for (const ids of chunks(fulfillmentOrderIdsOf(ordersJsonl), perOperation)) {
          linesJsonl += await runBulkQuery(admin, bulkQueryFor(FULFILLMENT_ORDER_LINES_BULK_QUERY, "FulfillmentOrder", ids), deadline, options);
        }
        const assembled = assembleOrders(ordersJsonl, linesJsonl);
        for (const [id, order] of assembled) found.set(id, order);
        options.onOrders?.([...assembled.values()]);
      } catch (error) {
        // The other reader stops at its next chunk: the read fails as a whole, as it did one chunk at a time.
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_READS_AT_ONCE, pending.length) }, reader));
  return new Map(unique.map((id) => [id, found.get(id) ?? null]));
}
