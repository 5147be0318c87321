/**
 * customers/data_request: Shopify forwards a customer's request for their data, and the app must give the merchant
 * what it holds about that customer (Shopify's privacy rules: provide it to the store owner directly, within 30
 * days). The request is recorded with ids only; the export is built from the stored label snapshots and purchase
 * attempts of the orders it names each time the merchant opens it, so a later redaction shows in it.
 * Every query is scoped by shop.
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { SecretBoxError } from "../security/secret-box.server";
import type { CustomersDataRequestPayload } from "../webhooks/signed-delivery";
import { openRequest } from "./snapshot-seal.server";

export const EXPORT_FORMAT = "etiquette.customer-data-export/1";

/** Numeric order ids from the webhook (or GIDs) as the order GIDs stored on labels and attempts. */
export function orderGid(id: string | number): string {
  const text = String(id).trim();
  return text.startsWith("gid://") ? text : `gid://shopify/Order/${text}`;
}

export async function recordDataRequest(
  db: PrismaClient,
  shop: string,
  payload: CustomersDataRequestPayload,
  webhookId: string,
): Promise<string> {
  const requestKey = payload.data_request ? String(payload.data_request.id) : `webhook:${webhookId}`;
  const orderIds = [...new Set(payload.orders_requested.map(orderGid))];
  const customerId = payload.customer.id === null || payload.customer.id === undefined ? null : String(payload.customer.id);
  const row = await db.customerDataRequest.upsert({
    where: { shop_requestKey: { shop, requestKey } },
    create: { shop, requestKey, customerId, orderIdsJson: JSON.stringify(orderIds) },
    update: {},
  });
  return row.id;
}

const orderIdsSchema = z.array(z.string());

/** A stored label request with its sealed recipient opened (decision 0172); one that cannot be opened says so. */
function openSnapshot(text: string): unknown {
  try {
    return openRequest(text);
  } catch (error) {
    if (error instanceof SecretBoxError) return { unreadable: "the recipient was sealed with a key this app no longer has" };
    return parseJson(text);
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface DataRequestSummary {
  id: string;
  shopifyRequestId: string | null;
  customerId: string | null;
  orderCount: number;
  recordsFound: number;
  receivedAt: Date;
  handedOverAt: Date | null;
}

export interface CustomerDataExport {
  format: typeof EXPORT_FORMAT;
  shop: string;
  request: { shopifyRequestId: string | null; customerId: string | null; orders: string[]; receivedAt: string };
  labels: {
    orderId: string;
    orderName: string;
    environment: string;
    createdAt: string;
    customReference: string;
    trackingNumber: string;
    trackingUrl: string;
    carrier: string;
    carrierService: string;
    redactedAt: string | null;
    requestAsSent: unknown;
  }[];
  purchaseAttempts: {
    orderId: string;
    orderName: string;
    environment: string;
    status: string;
    createdAt: string;
    customReference: string;
    requestAsSent: unknown;
    serviceAnswer: unknown;
  }[];
}

type RequestRow = { id: string; requestKey: string; customerId: string | null; orderIdsJson: string; receivedAt: Date; handedOverAt: Date | null };

function ordersOf(row: RequestRow): string[] {
  const parsed = orderIdsSchema.safeParse(parseJson(row.orderIdsJson));
  return parsed.success ? parsed.data : [];
}

function shopifyRequestId(row: RequestRow): string | null {
  return row.requestKey.startsWith("webhook:") ? null : row.requestKey;
}

async function exportFor(db: PrismaClient, shop: string, row: RequestRow): Promise<CustomerDataExport> {
  const orders = ordersOf(row);
  const where = { shop, orderId: { in: orders } };
  const [labels, attempts] = await Promise.all([
    db.label.findMany({ where, orderBy: { createdAt: "asc" } }),
    db.purchaseAttempt.findMany({ where, orderBy: { createdAt: "asc" } }),
  ]);
  return {
    format: EXPORT_FORMAT,
    shop,
    request: {
      shopifyRequestId: shopifyRequestId(row),
      customerId: row.customerId,
      orders,
      receivedAt: row.receivedAt.toISOString(),
    },
    labels: labels.map((label) => ({
      orderId: label.orderId,
      orderName: label.orderName,
      environment: label.environment,
      createdAt: label.createdAt.toISOString(),
      customReference: label.customReference,
      trackingNumber: label.trackingNumber,
      trackingUrl: label.trackingUrl,
      carrier: label.carrierName,
      carrierService: label.carrierServiceName,
      redactedAt: label.redactedAt?.toISOString() ?? null,
      requestAsSent: openSnapshot(label.requestSnapshotJson),
    })),
    purchaseAttempts: attempts.map((attempt) => ({
      orderId: attempt.orderId,
      orderName: attempt.orderName,
      environment: attempt.environment,
      status: attempt.status,
      createdAt: attempt.createdAt.toISOString(),
      customReference: attempt.customReference,
      requestAsSent: openSnapshot(attempt.requestJson),
      serviceAnswer: parseJson(attempt.errorJson),
    })),
  };
}

/** The shop's requests, newest first, each with how many stored records (labels and attempts) it covers. */
export async function listDataRequests(db: PrismaClient, shop: string, limit = 50): Promise<DataRequestSummary[]> {
  const rows = await db.customerDataRequest.findMany({ where: { shop }, orderBy: { receivedAt: "desc" }, take: limit });
  return Promise.all(
    rows.map(async (row) => {
      const orders = ordersOf(row);
      const where = { shop, orderId: { in: orders } };
      const [labels, attempts] = await Promise.all([db.label.count({ where }), db.purchaseAttempt.count({ where })]);
      return {
        id: row.id,
        shopifyRequestId: shopifyRequestId(row),
        customerId: row.customerId,
        orderCount: orders.length,
        recordsFound: labels + attempts,
        receivedAt: row.receivedAt,
        handedOverAt: row.handedOverAt,
      };
    }),
  );
}

/** The export for one of the shop's requests; null when the id is not the shop's. */
export async function customerDataExport(db: PrismaClient, shop: string, id: string): Promise<CustomerDataExport | null> {
  const row = await db.customerDataRequest.findFirst({ where: { id, shop } });
  return row ? exportFor(db, shop, row) : null;
}

/** The merchant says the export was handed over. Returns false when the id is not the shop's. */
export async function markHandedOver(db: PrismaClient, shop: string, id: string, at: Date = new Date()): Promise<boolean> {
  const { count } = await db.customerDataRequest.updateMany({ where: { id, shop, handedOverAt: null }, data: { handedOverAt: at } });
  if (count > 0) return true;
  return (await db.customerDataRequest.count({ where: { id, shop } })) > 0;
}
