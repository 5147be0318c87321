import { describe, expect, it } from "vitest";
import { createSecretBox } from "../security/secret-box.server";
import type { OrderForLabel } from "../shopify/operations/order-for-label";
import { openOrderDraft, ORDER_DRAFT_FRESH_MS, sealOrderDraft } from "./order-draft.server";

const box = createSecretBox(new Map([[1, Buffer.alloc(32, 1)]]), 1);
const ORDER_ID = "gid://shopify/Order/7";
const order = {
  id: ORDER_ID,
  name: "#1007",
  email: "anne@example.com",
  displayFulfillmentStatus: "UNFULFILLED",
  currencyCode: "EUR",
  presentmentCurrencyCode: "EUR",
  shippingAddress: { name: "Anne Martin", address1: "3 rue des Lilas", city: "Lyon", zip: "69001", countryCodeV2: "FR" },
  totalShippingPriceSet: { shopMoney: { amount: "5.00", currencyCode: "EUR" }, presentmentMoney: { amount: "5.00", currencyCode: "EUR" } },
  lineItems: { nodes: [] },
  fulfillmentOrders: { nodes: [] },
} as unknown as OrderForLabel;

describe("a bulk item's stored order", () => {
  const readAt = new Date("2026-11-26T05:00:00Z");
  const stored = { orderId: ORDER_ID, orderSealed: sealOrderDraft(order, box), orderReadAt: readAt };

  it("is sealed at rest: the recipient's name and address are not readable in the row", () => {
    expect(stored.orderSealed).toMatch(/^v1:/);
    expect(stored.orderSealed).not.toContain("Anne");
    expect(stored.orderSealed).not.toContain("Lilas");
  });

  it("opens while fresh, and not once older than its window (the item reads the order again)", () => {
    expect(openOrderDraft(stored, new Date(readAt.getTime() + ORDER_DRAFT_FRESH_MS), { box })?.shippingAddress?.city).toBe("Lyon");
    expect(openOrderDraft(stored, new Date(readAt.getTime() + ORDER_DRAFT_FRESH_MS + 1), { box })).toBeNull();
    expect(openOrderDraft(stored, new Date(readAt.getTime() - 1000), { box })).toBeNull();
  });

  it("is ignored when missing, for another order, or sealed with a key no longer held", () => {
    const now = new Date(readAt.getTime() + 1000);
    expect(openOrderDraft({ ...stored, orderSealed: null }, now, { box })).toBeNull();
    expect(openOrderDraft({ ...stored, orderId: "gid://shopify/Order/8" }, now, { box })).toBeNull();
    expect(openOrderDraft(stored, now, { box: createSecretBox(new Map([[2, Buffer.alloc(32, 2)]]), 2) })).toBeNull();
  });
});
