import { afterEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});

const RUN = `mutation Run($query: String!) { bulkOperationRunQuery(query: $query, groupObjects: false) {
  bulkOperation { id status url } userErrors { field message code } } }`;
const POLL = "query Poll($id: ID!) { bulkOperation(id: $id) { id status objectCount rootObjectCount fileSize url completedAt type } }";
const ORDERS_WITH_LINES = '{ orders(query: "name:#1002 OR name:#1003") { edges { node { id name lineItems { edges { node { id quantity } } } } } } }';

describe("bulk operations", () => {
  it("runs a query outside the rate limit and serves its JSONL, nested nodes with __parentId", async () => {
    let clock = 1_000_000;
    t = await startTestEmulator({ now: () => clock, bulkDurationMs: 1000 });
    const started = await t.post(RUN, { query: ORDERS_WITH_LINES });
    expect(started.body.data?.bulkOperationRunQuery.userErrors).toEqual([]);
    const operation = started.body.data?.bulkOperationRunQuery.bulkOperation;
    expect(operation.status).toBe("CREATED");
    expect(started.body.extensions?.cost?.actualQueryCost).toBe(10); // the mutation's own price, nothing for the reading

    clock += 500;
    expect((await t.gql(POLL, { id: operation.id })).bulkOperation).toMatchObject({ status: "RUNNING", url: null });
    clock += 500;
    const done = (await t.gql(POLL, { id: operation.id })).bulkOperation;
    expect(done).toMatchObject({ status: "COMPLETED", type: "QUERY" });
    expect((await t.gql(`{ node(id: "${operation.id}") { id ... on BulkOperation { status } } }`)).node.status).toBe("COMPLETED");
    expect((await t.gql("{ currentBulkOperation { id } }")).currentBulkOperation.id).toBe(operation.id);

    const text = await (await fetch(done.url)).text();
    const lines = text.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const orders = lines.filter((line) => !("__parentId" in line));
    expect(orders.map((order) => order.name)).toEqual(["#1002", "#1003"]);
    expect(orders[0]).not.toHaveProperty("lineItems");
    const children = lines.filter((line) => "__parentId" in line);
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      expect(String(child.id)).toMatch(/^gid:\/\/shopify\/LineItem\//);
      expect(orders.map((order) => order.id)).toContain(child.__parentId);
    }
    expect(done.objectCount).toBe(String(lines.length));
    expect(done.rootObjectCount).toBe("2");
    expect(done.fileSize).toBe(String(Buffer.byteLength(text)));
    expect((await fetch(`${t.emulator.url}/__bulk/0000.jsonl`)).status).toBe(404);
  });

  it("refuses what Shopify refuses: no top-level connection, connections three deep, more than five connections", async () => {
    t = await startTestEmulator({ bulkDurationMs: 0 });
    const refused = async (query: string) => (await t!.gql(RUN, { query })).bulkOperationRunQuery.userErrors;
    expect(await refused("{ shop { name } }")).toEqual([expect.objectContaining({ code: "INVALID", field: ["query"] })]);
    const threeDeep = "{ orders { nodes { id fulfillmentOrders { nodes { id lineItems { nodes { id } } } } } } }";
    expect((await refused(threeDeep))[0].message).toMatch(/nested more than 2/);
  });

  it("runs at most 5 at once per shop, then LIMIT_REACHED until one completes", async () => {
    let clock = 0;
    t = await startTestEmulator({ now: () => clock, bulkDurationMs: 1000 });
    for (let i = 0; i < 5; i += 1) expect((await t.gql(RUN, { query: ORDERS_WITH_LINES })).bulkOperationRunQuery.userErrors).toEqual([]);
    const sixth = (await t.gql(RUN, { query: ORDERS_WITH_LINES })).bulkOperationRunQuery;
    expect(sixth.bulkOperation).toBeNull();
    expect(sixth.userErrors[0].code).toBe("LIMIT_REACHED");
    clock += 1000;
    expect((await t.gql(RUN, { query: ORDERS_WITH_LINES })).bulkOperationRunQuery.userErrors).toEqual([]);
  });

  it("completes with no file when nothing matched", async () => {
    t = await startTestEmulator({ bulkDurationMs: 0 });
    const { id } = (await t.gql(RUN, { query: '{ orders(query: "name:#999999") { nodes { id } } }' })).bulkOperationRunQuery.bulkOperation;
    expect((await t.gql(POLL, { id })).bulkOperation).toMatchObject({ status: "COMPLETED", objectCount: "0", url: null });
  });
});
