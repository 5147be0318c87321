import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator({ now: () => Date.parse("2026-11-22T10:00:00Z") });
});
afterAll(async () => {
  await t.emulator.close();
});

const SET = `mutation S($metafields: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $metafields) {
  metafields { id namespace key type value jsonValue compareDigest ownerType }
  userErrors { field message code elementIndex } } }`;
const ORDER = "gid://shopify/Order/7100001002";
const APP_NS = "app--310000000001";

describe("metafieldsSet", () => {
  it("resolves $app to app--<appId>, stores, and reads back through metafield() and metafields()", async () => {
    const value = JSON.stringify({ trackingNumber: "6A123", environment: "staging" });
    const data = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "$app", key: "etiquette_label", type: "json", value }] });
    expect(data.metafieldsSet.userErrors).toEqual([]);
    expect(data.metafieldsSet.metafields).toEqual([
      expect.objectContaining({ namespace: APP_NS, key: "etiquette_label", type: "json", value, jsonValue: JSON.parse(value), ownerType: "ORDER" }),
    ]);
    const read = await t.gql(`{ order(id: "${ORDER}") {
      byApp: metafield(namespace: "$app", key: "etiquette_label") { value }
      byFull: metafield(namespace: "${APP_NS}", key: "etiquette_label") { value }
      all: metafields(first: 5, namespace: "$app") { nodes { key } } } }`);
    expect(read.order).toEqual({ byApp: { value }, byFull: { value }, all: { nodes: [{ key: "etiquette_label" }] } });
    const inspected = await t.inspect("/__admin/orders/1002");
    expect(inspected.body.metafields).toEqual([expect.objectContaining({ namespace: APP_NS, key: "etiquette_label", value })]);
  });

  it("accepts at most 25 metafields per call and stores none of a larger batch", async () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ ownerId: ORDER, namespace: "custom", key: `k${i}x`, type: "single_line_text_field", value: "v" }));
    const data = await t.gql(SET, { metafields: many });
    expect(data.metafieldsSet).toEqual({
      metafields: null,
      userErrors: [{ field: ["metafields"], message: "Exceeded the maximum metafields input limit of 25.", code: "LESS_THAN_OR_EQUAL_TO", elementIndex: null }],
    });
    const ok = await t.gql(SET, { metafields: many.slice(0, 25) });
    expect(ok.metafieldsSet.metafields).toHaveLength(25);
  });

  it("validates types and values roughly, atomically", async () => {
    const data = await t.gql(SET, {
      metafields: [
        { ownerId: ORDER, namespace: "custom", key: "atomic_ok", type: "single_line_text_field", value: "fine" },
        { ownerId: ORDER, namespace: "custom", key: "bad_json", type: "json", value: "{not json" },
        { ownerId: ORDER, namespace: "custom", key: "bad_type", type: "text", value: "x" },
        { ownerId: ORDER, namespace: "custom", key: "bad_int", type: "number_integer", value: "1.5" },
        { ownerId: ORDER, namespace: "custom", key: "no_type", value: "x" },
        { ownerId: "gid://shopify/Order/1", namespace: "custom", key: "nobody", type: "boolean", value: "true" },
        { ownerId: ORDER, namespace: "custom", key: "x", type: "boolean", value: "true" },
      ],
    });
    expect(data.metafieldsSet.metafields).toBeNull();
    expect(data.metafieldsSet.userErrors.map((e: { field: string[]; code: string; elementIndex: number }) => [e.field.join("."), e.code, e.elementIndex])).toEqual([
      ["metafields.1.value", "INVALID_VALUE", 1],
      ["metafields.2.type", "INVALID_TYPE", 2],
      ["metafields.3.value", "INVALID_VALUE", 3],
      ["metafields.4.type", "BLANK", 4],
      ["metafields.5.ownerId", "INVALID", 5],
      ["metafields.6.key", "TOO_SHORT", 6],
    ]);
    const read = await t.gql(`{ order(id: "${ORDER}") { metafield(namespace: "custom", key: "atomic_ok") { value } } }`);
    expect(read.order.metafield).toBeNull();
  });

  it("honours compareDigest", async () => {
    const first = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "custom", key: "digest", type: "single_line_text_field", value: "one" }] });
    const digest = first.metafieldsSet.metafields[0].compareDigest;
    const stale = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "custom", key: "digest", value: "two", compareDigest: "0".repeat(64) }] });
    expect(stale.metafieldsSet.userErrors[0].code).toBe("STALE_OBJECT");
    const fresh = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "custom", key: "digest", value: "two", compareDigest: digest }] });
    expect(fresh.metafieldsSet.metafields[0].value).toBe("two");
  });
});

describe("metafieldDefinitionCreate", () => {
  const CREATE = `mutation D($d: MetafieldDefinitionInput!) { metafieldDefinitionCreate(definition: $d) {
    createdDefinition { id name namespace key ownerType type { name category } } userErrors { field message code } } }`;

  it("creates a definition in the app namespace, refuses a duplicate, and enforces its type", async () => {
    const d = { name: "Étiquette label", namespace: "$app", key: "label_summary", type: "json", ownerType: "ORDER" };
    const created = await t.gql(CREATE, { d });
    expect(created.metafieldDefinitionCreate.createdDefinition).toEqual(
      expect.objectContaining({ namespace: APP_NS, key: "label_summary", ownerType: "ORDER", type: { name: "json", category: "JSON" } }),
    );
    const again = await t.gql(CREATE, { d });
    expect(again.metafieldDefinitionCreate.userErrors).toEqual([
      { field: ["definition", "key"], message: `Key is in use for Order metafields on the '${APP_NS}' namespace.`, code: "TAKEN" },
    ]);
    const mismatch = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "$app", key: "label_summary", type: "single_line_text_field", value: "x" }] });
    expect(mismatch.metafieldsSet.userErrors[0].code).toBe("INVALID_TYPE");
    const typeFromDefinition = await t.gql(SET, { metafields: [{ ownerId: ORDER, namespace: "$app", key: "label_summary", value: "{}" }] });
    expect(typeFromDefinition.metafieldsSet.metafields[0].type).toBe("json");
  });
});
