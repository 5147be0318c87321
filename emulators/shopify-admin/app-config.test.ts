import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppConfigError, declaredDefinitions, loadAppConfig } from "./app-config";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

describe("metafield definitions declared in shopify.app.toml", () => {
  it("the app declares its order label summary: $app, JSON, merchant read-only", () => {
    expect(loadAppConfig()).toEqual([
      expect.objectContaining({
        ownerType: "ORDER",
        key: "etiquette_label",
        type: "json",
        access: { admin: "MERCHANT_READ", storefront: "NONE", customerAccount: "NONE" },
      }),
    ]);
  });

  it("refuses what it cannot honour, naming the table", () => {
    expect(() => declaredDefinitions('[order.metafields.app.x]\ntype = "json"\n[order.metafields.app.x.access]\nadmin = "public_read"\n')).toThrow(
      /\[order\.metafields\.app\.x\] access\.admin/,
    );
    expect(() => declaredDefinitions('[product.metafields.app.x]\ntype = "json"\n')).toThrow(AppConfigError);
    expect(() => declaredDefinitions('[order.metafields.app.x]\ntype = "nope"\n')).toThrow(/type/);
    expect(declaredDefinitions('[order.metafields.app.x]\ntype = "json"\n')[0]?.access.admin).toBe("PRIVATE");
  });
});

describe("the emulator honours the declared definitions", () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator({ now: () => Date.parse("2026-11-22T10:00:00Z") });
  });
  afterAll(async () => {
    await t.emulator.close();
  });

  const DEFINITIONS = `{ metafieldDefinitions(first: 5, ownerType: ORDER, namespace: "$app") {
    nodes { namespace key name ownerType type { name } access { admin storefront customerAccount } } } }`;

  it("the definition exists from the start, in the app's namespace, with its access; and again after a reset", async () => {
    const expected = [{ namespace: expect.stringMatching(/^app--\d+$/), key: "etiquette_label", name: "Shipping label (Etiquette)", ownerType: "ORDER", type: { name: "json" }, access: { admin: "MERCHANT_READ", storefront: "NONE", customerAccount: "NONE" } }];
    expect((await t.gql(DEFINITIONS)).metafieldDefinitions.nodes).toEqual(expected);
    await t.inspect("/__admin/reset", "POST");
    expect((await t.gql(DEFINITIONS)).metafieldDefinitions.nodes).toEqual(expected);
  });

  it("a value of another type than the definition's is refused; the app's JSON summary is stored and linked to it", async () => {
    const order = (await t.gql(`{ orders(first: 1) { nodes { id } } }`)).orders.nodes[0].id as string;
    const SET = `mutation S($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { definition { key } } userErrors { code } } }`;
    const wrong = await t.gql(SET, { m: [{ ownerId: order, namespace: "$app", key: "etiquette_label", type: "single_line_text_field", value: "x" }] });
    expect(wrong.metafieldsSet.userErrors).toEqual([{ code: "INVALID_TYPE" }]);
    const right = await t.gql(SET, { m: [{ ownerId: order, namespace: "$app", key: "etiquette_label", type: "json", value: '{"labels":[]}' }] });
    expect(right.metafieldsSet).toEqual({ metafields: [{ definition: { key: "etiquette_label" } }], userErrors: [] });
  });

  it("the app cannot create a second definition with the same key", async () => {
    const data = await t.gql(`mutation { metafieldDefinitionCreate(definition: { name: "x", namespace: "$app", key: "etiquette_label", type: "json", ownerType: ORDER }) { createdDefinition { id } userErrors { code } } }`);
    expect(data.metafieldDefinitionCreate).toEqual({ createdDefinition: null, userErrors: [{ code: "TAKEN" }] });
  });
});
