import { parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../emulators/shopify-admin/test-helpers";
import { loadAdminSchema } from "../../../shopify-schema/load";
import { ORDER_FOR_LABEL_QUERY, orderForLabelSchema } from "./order-for-label";

const SWISS_ORDER = "gid://shopify/Order/7100001015";
const DOMESTIC_ORDER = "gid://shopify/Order/7100001002";

describe("ORDER_FOR_LABEL_QUERY (static)", () => {
  it("is a plain #graphql document, without interpolation", () => {
    expect(ORDER_FOR_LABEL_QUERY.trimStart().startsWith("#graphql")).toBe(true);
    expect(ORDER_FOR_LABEL_QUERY).not.toContain("${");
    expect(ORDER_FOR_LABEL_QUERY).toMatch(/query OrderForLabel\(\$id: ID!\)/);
  });

  it("validates against the pinned 2026-10 Admin schema", () => {
    const errors = validate(loadAdminSchema(), parse(ORDER_FOR_LABEL_QUERY));
    expect(errors.map((error) => error.message)).toEqual([]);
  });
});

describe("ORDER_FOR_LABEL_QUERY against the emulator", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => {
    await emulator.emulator.close();
  });

  it("runs without errors, within the cost budget, and parses with the zod schema", async () => {
    const { status, body } = await emulator.post(ORDER_FOR_LABEL_QUERY, { id: SWISS_ORDER });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const cost = body.extensions?.cost?.requestedQueryCost;
    expect(typeof cost).toBe("number");
    expect(cost).toBeLessThan(1000);

    const order = orderForLabelSchema.parse(body.data?.order);
    expect(order.id).toBe(SWISS_ORDER);
    expect(order.shippingAddress?.countryCodeV2).toBe("CH");
    expect(order.lineItems.nodes.length).toBeGreaterThan(0);
    expect(order.fulfillmentOrders.nodes.length).toBeGreaterThan(0);
    for (const fulfillmentOrder of order.fulfillmentOrders.nodes) {
      for (const line of fulfillmentOrder.lineItems.nodes) {
        expect(order.lineItems.nodes.some((item) => item.id === line.lineItem.id)).toBe(true);
      }
    }
  });

  it("parses a domestic order too", async () => {
    const data = await emulator.gql(ORDER_FOR_LABEL_QUERY, { id: DOMESTIC_ORDER });
    const order = orderForLabelSchema.parse(data.order);
    expect(order.shippingAddress?.countryCodeV2).toBe("FR");
  });

  it("returns a null order for an unknown id, which the caller treats as not found", async () => {
    const data = await emulator.gql(ORDER_FOR_LABEL_QUERY, { id: "gid://shopify/Order/1" });
    expect(data.order).toBeNull();
  });
});
