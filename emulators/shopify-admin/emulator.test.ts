import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SHOP, startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(async () => {
  await t.emulator.close();
});

describe("authentication and shop selection", () => {
  it("answers 401 with Shopify's body for a wrong or missing token", async () => {
    const wrong = await t.post("{ shop { name } }", {}, "shpat_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    const missing = await fetch(`${t.emulator.url}/admin/api/2026-10/graphql.json`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(401);
  });

  it("accepts the /shops/<domain> prefix only for the token's own shop", async () => {
    const ok = await t.post("{ shop { myshopifyDomain } }", {}, undefined, `/shops/${DEMO_SHOP}/admin/api/2026-10/graphql.json`);
    expect(ok.status).toBe(200);
    expect(ok.body.data?.shop.myshopifyDomain).toBe(DEMO_SHOP);
    const other = await t.post("{ shop { name } }", {}, undefined, "/shops/other-shop.myshopify.com/admin/api/2026-10/graphql.json");
    expect(other.status).toBe(401);
  });

  it("serves only API version 2026-10", async () => {
    const old = await t.post("{ shop { name } }", {}, undefined, "/admin/api/2024-01/graphql.json");
    expect(old.status).toBe(404);
  });
});

describe("validation against the pinned 2026-10 schema", () => {
  it("rejects a misspelled field with graphql-js's message, locations and a code", async () => {
    const { status, body } = await t.post("query {\n  shop { nmae }\n}");
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: 'Cannot query field "nmae" on type "Shop". Did you mean "name"?',
        locations: [{ line: 2, column: 10 }],
        extensions: { code: "undefinedField" },
      },
    ]);
  });

  it("rejects unknown arguments, missing required arguments and unused variables", async () => {
    const { body } = await t.post('query Q($unused: Int) { order { name } orders(firstt: 2) { nodes { id } } }');
    const messages = (body.errors as { message: string; extensions: { code: string } }[]).map((e) => [e.extensions.code, e.message]);
    expect(messages).toContainEqual(["missingRequiredArguments", 'Field "order" argument "id" of type "ID!" is required, but it was not provided.']);
    expect(messages).toContainEqual(["argumentNotAccepted", 'Unknown argument "firstt" on field "QueryRoot.orders". Did you mean "first"?']);
    expect(messages).toContainEqual(["variableNotUsed", 'Variable "$unused" is never used in operation "Q".']);
  });

  it("rejects a deprecated-but-removed style mistake: fulfillmentCreate takes FulfillmentInput, not FulfillmentV2Input", async () => {
    const { body } = await t.post("mutation M($f: FulfillmentV2Input!) { fulfillmentCreate(fulfillment: $f) { userErrors { message } } }", {
      f: { lineItemsByFulfillmentOrder: [] },
    });
    expect(body.errors?.[0]?.extensions.code).toBe("variableMismatch");
  });

  it("reports bad variables with INVALID_VARIABLE", async () => {
    const { body } = await t.post("query Q($n: Int!) { orders(first: $n) { nodes { id } } }", { n: "ten" });
    expect(body.errors?.[0]?.extensions.code).toBe("INVALID_VARIABLE");
    expect(body.errors?.[0]?.message).toContain('Variable "$n" got invalid value "ten"');
  });
});

describe("fields that exist in the schema but are not emulated", () => {
  it("fail loudly, naming the field, instead of returning a silent null", async () => {
    const { body } = await t.post('{ order(id: "gid://shopify/Order/7100001001") { name riskLevel } }');
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: "Field Order.riskLevel is not emulated",
        path: ["order", "riskLevel"],
        extensions: { code: "NOT_EMULATED" },
      }),
    ]);
  });

  it("fail loudly for arguments the emulator would otherwise ignore", async () => {
    const { body } = await t.post('{ orders(first: 1, savedSearchId: "gid://shopify/SavedSearch/1") { nodes { id } } }');
    expect(body.errors?.[0]?.message).toBe("Argument QueryRoot.orders(savedSearchId) is not emulated");
  });

  it("fail loudly for a sort key that is not emulated", async () => {
    const { body } = await t.post("{ orders(first: 1, sortKey: TOTAL_PRICE) { nodes { id } } }");
    expect(body.errors?.[0]?.message).toBe("orders(sortKey: TOTAL_PRICE) is not emulated");
  });
});

describe("what the emulator serves", () => {
  it("serves the shop", async () => {
    const data = await t.gql("{ shop { name email currencyCode myshopifyDomain ianaTimezone billingAddress { city zip countryCodeV2 } } }");
    expect(data.shop).toEqual({
      name: "Maison Étiquette",
      email: "boutique@maison-etiquette.example",
      currencyCode: "EUR",
      myshopifyDomain: DEMO_SHOP,
      ianaTimezone: "Europe/Paris",
      billingAddress: { city: "Paris", zip: "75012", countryCodeV2: "FR" },
    });
  });

  it("serves an order with line items, money in shop and presentment currencies, variants and inventory items", async () => {
    const list = await t.gql('{ orders(first: 5, query: "status:open", sortKey: ORDER_NUMBER) { nodes { id presentmentCurrencyCode } } }');
    const usd = await t.gql('{ orders(first: 250) { nodes { id name presentmentCurrencyCode } } }');
    const usdOrder = (usd.orders.nodes as { id: string; presentmentCurrencyCode: string }[]).find((o) => o.presentmentCurrencyCode === "USD");
    expect(list.orders.nodes.length).toBe(5);
    expect(usdOrder).toBeDefined();
    const data = await t.gql(
      `query O($id: ID!) { order(id: $id) { name currencyCode presentmentCurrencyCode totalShippingPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
        shippingLine { title code originalPriceSet { shopMoney { amount } } }
        shippingAddress { name address1 city zip countryCodeV2 provinceCode }
        lineItems(first: 10) { nodes { quantity currentQuantity requiresShipping isGiftCard sku title name
          originalUnitPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
          discountedUnitPriceAfterAllDiscountsSet { shopMoney { amount } }
          originalTotalSet { shopMoney { amount } }
          priceAfterAllDiscountsBeforeTaxesSet { shopMoney { amount } }
          variant { id title sku product { id title } inventoryItem { id harmonizedSystemCode countryCodeOfOrigin requiresShipping measurement { weight { unit value } } } } } } } }`,
      { id: usdOrder!.id },
    );
    const order = data.order;
    expect(order.currencyCode).toBe("EUR");
    expect(order.presentmentCurrencyCode).toBe("USD");
    expect(order.totalShippingPriceSet.presentmentMoney.currencyCode).toBe("USD");
    expect(order.shippingAddress.countryCodeV2).toBe("US");
    for (const line of order.lineItems.nodes) {
      expect(line.originalUnitPriceSet.shopMoney.currencyCode).toBe("EUR");
      expect(line.originalUnitPriceSet.presentmentMoney.currencyCode).toBe("USD");
      expect(line.originalUnitPriceSet.shopMoney.amount).toMatch(/^\d+\.\d{1,2}$/);
      // Amounts are exact: quantity x unit price.
      expect(Number(line.originalTotalSet.shopMoney.amount)).toBeCloseTo(Number(line.originalUnitPriceSet.shopMoney.amount) * line.quantity, 2);
    }
  });

  it("serializes Decimal like Shopify (at least one fractional digit, no trailing zero)", async () => {
    const data = await t.gql('{ order(id: "gid://shopify/Order/7100001001") { lineItems(first: 5) { nodes { sku originalUnitPriceSet { shopMoney { amount } } } } } }');
    const amounts = (data.order.lineItems.nodes as { originalUnitPriceSet: { shopMoney: { amount: string } } }[]).map((l) => l.originalUnitPriceSet.shopMoney.amount);
    expect(amounts).toEqual(["18.9", "12.5"]);
  });

  it("resolves node and nodes for Order and FulfillmentOrder, null for an unknown id", async () => {
    const fo = await t.gql('{ order(id: "gid://shopify/Order/7100001002") { fulfillmentOrders(first: 1) { nodes { id } } } }');
    const foId = fo.order.fulfillmentOrders.nodes[0].id as string;
    const data = await t.gql(
      `query N($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Order { name } ... on FulfillmentOrder { status orderName } } }`,
      { ids: ["gid://shopify/Order/7100001002", foId, "gid://shopify/Order/1"] },
    );
    expect(data.nodes).toEqual([
      { __typename: "Order", id: "gid://shopify/Order/7100001002", name: "#1002" },
      { __typename: "FulfillmentOrder", id: foId, status: "OPEN", orderName: "#1002" },
      null,
    ]);
  });
});
