/**
 * The app talks to Shopify through @shopify/shopify-api's own Admin GraphQL client. This test drives that real
 * client on the app's Admin transport (app/shopify/admin-transport.server.ts, decision 0213), pointed at the emulator
 * the way demo mode does it (app/demo/admin-endpoint.server.ts), to prove the library accepts the emulator's answers
 * exactly as it accepts Shopify's, errors included.
 */
import "@shopify/shopify-api/adapters/node";
import { ApiVersion, GraphqlQueryError, HttpResponseError, LogSeverity, Session, shopifyApi } from "@shopify/shopify-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installDemoAdminEndpoint } from "../../app/demo/admin-endpoint.server";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
const api = shopifyApi({
  apiKey: "test-key",
  apiSecretKey: "test-secret",
  apiVersion: ApiVersion.October26,
  hostName: "app.example.com",
  isEmbeddedApp: true,
  logger: { level: LogSeverity.Error },
});

function client(accessToken = DEMO_TOKEN) {
  const session = new Session({ id: `offline_${DEMO_SHOP}`, shop: DEMO_SHOP, state: "state", isOnline: false, accessToken });
  return new api.clients.Graphql({ session });
}

beforeAll(async () => {
  // A bucket of 50 points: the third 22-point query in a row is THROTTLED.
  t = await startTestEmulator({ bucket: { size: 50, restoreRate: 1 } });
  installDemoAdminEndpoint(t.emulator.url);
});
afterAll(async () => {
  await t.emulator.close();
});

describe("@shopify/shopify-api's GraphQL client against the emulator", () => {
  it("runs a query and exposes the cost extension", async () => {
    const response = await client().request<{ orders: { nodes: { name: string }[] } }>(
      "query Orders($q: String) { orders(first: 3, query: $q, sortKey: ORDER_NUMBER) { nodes { name } } }",
      { variables: { q: "status:any" } },
    );
    expect(response.data?.orders.nodes.map((n) => n.name)).toEqual(["#1001", "#1002", "#1003"]);
    expect(response.extensions?.cost).toEqual(expect.objectContaining({ requestedQueryCost: 5, actualQueryCost: 5 }));
  });

  it("surfaces validation errors the way it does for Shopify", async () => {
    const error = await client().request("{ shop { nmae } }").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphqlQueryError);
    expect((error as GraphqlQueryError).message).toBe('Cannot query field "nmae" on type "Shop". Did you mean "name"?');
    expect((error as GraphqlQueryError).body?.errors).toEqual(
      expect.objectContaining({ graphQLErrors: [expect.objectContaining({ extensions: { code: "undefinedField" } })] }),
    );
  });

  it("surfaces a THROTTLED answer with its cost extension, for the app to wait it out", async () => {
    const query = "{ orders(first: 20) { nodes { id } } }"; // 22 points
    await client().request(query);
    await client().request(query);
    const error = await client().request(query).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphqlQueryError);
    const body = (error as GraphqlQueryError).body as { errors?: { graphQLErrors?: { extensions?: { code?: string } }[] }; extensions?: { cost?: { throttleStatus?: unknown } } };
    expect(body.errors?.graphQLErrors?.[0]?.extensions?.code).toBe("THROTTLED");
    expect(body.extensions?.cost?.throttleStatus).toEqual(expect.objectContaining({ maximumAvailable: 50, restoreRate: 1 }));
  });

  it("reports a wrong token as an HTTP 401", async () => {
    const error = await client("shpat_wrong_token").request("{ shop { name } }").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect((error as HttpResponseError).response.code).toBe(401);
    expect((error as HttpResponseError).message).toContain("401 Unauthorized");
  });
});
