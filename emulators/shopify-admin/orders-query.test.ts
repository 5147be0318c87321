import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

let t: TestEmulator;
interface Row {
  id: string;
  name: string;
  number: number;
  createdAt: string;
  displayFulfillmentStatus: string;
  cancelledAt: string | null;
  closed: boolean;
}
let all: Row[] = [];

const ROW = "id name number createdAt displayFulfillmentStatus cancelledAt closed";

beforeAll(async () => {
  t = await startTestEmulator();
  const data = await t.gql(`{ orders(first: 250, sortKey: ORDER_NUMBER) { nodes { ${ROW} } } }`);
  all = data.orders.nodes;
});
afterAll(async () => {
  await t.emulator.close();
});

async function search(query: string): Promise<Row[]> {
  const data = await t.gql(`query S($q: String) { orders(first: 250, query: $q, sortKey: ORDER_NUMBER) { nodes { ${ROW} } } }`, { q: query });
  return data.orders.nodes;
}
const names = (rows: Row[]) => rows.map((row) => row.name);

describe("orders search", () => {
  it("the default seed has at least 60 orders named #1001 onwards, in every fulfillment state", () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(all[0]?.name).toBe("#1001");
    const statuses = new Set(all.map((row) => row.displayFulfillmentStatus));
    expect([...statuses].sort()).toEqual(["FULFILLED", "PARTIALLY_FULFILLED", "UNFULFILLED"]);
    expect(all.some((row) => row.cancelledAt)).toBe(true);
    expect(all.some((row) => row.closed)).toBe(true);
  });

  it("fulfillment_status: unshipped, partial, shipped and unfulfilled", async () => {
    const by = (status: string) => names(all.filter((row) => row.displayFulfillmentStatus === status));
    expect(names(await search("fulfillment_status:unshipped"))).toEqual(by("UNFULFILLED"));
    expect(names(await search("fulfillment_status:partial"))).toEqual(by("PARTIALLY_FULFILLED"));
    expect(names(await search("fulfillment_status:shipped"))).toEqual(by("FULFILLED"));
    const unfulfilled = names(all.filter((row) => row.displayFulfillmentStatus !== "FULFILLED"));
    expect(names(await search("fulfillment_status:unfulfilled"))).toEqual(unfulfilled);
  });

  it("status: open, closed and cancelled", async () => {
    expect(names(await search("status:open"))).toEqual(names(all.filter((row) => !row.closed && !row.cancelledAt)));
    expect(names(await search("status:closed"))).toEqual(names(all.filter((row) => row.closed)));
    expect(names(await search("status:cancelled"))).toEqual(names(all.filter((row) => row.cancelledAt)));
  });

  it("name: with or without #, and free text on the name", async () => {
    expect(names(await search("name:#1002"))).toEqual(["#1002"]);
    expect(names(await search("name:1002"))).toEqual(["#1002"]);
    expect(names(await search('name:"#1002"'))).toEqual(["#1002"]);
    expect(names(await search("#1010"))).toEqual(["#1010"]);
    expect(names(await search("101"))).toEqual(["#1010", "#1011", "#1012", "#1013", "#1014", "#1015", "#1016", "#1017", "#1018", "#1019"]);
  });

  it("created_at with >, >=, <, <= on dates (shop time zone) and date-times", async () => {
    const pivot = all[20]!;
    const at = Date.parse(pivot.createdAt);
    expect(names(await search(`created_at:>=${pivot.createdAt}`))).toEqual(names(all.filter((row) => Date.parse(row.createdAt) >= at)));
    expect(names(await search(`created_at:<${pivot.createdAt}`))).toEqual(names(all.filter((row) => Date.parse(row.createdAt) < at)));
    // A calendar date is a whole day in Europe/Paris: 2026-10-10 is [2026-10-09T22:00Z, 2026-10-10T22:00Z).
    const dayStart = Date.parse("2026-10-09T22:00:00Z");
    const dayEnd = Date.parse("2026-10-10T22:00:00Z");
    const inDay = (row: Row) => Date.parse(row.createdAt) >= dayStart && Date.parse(row.createdAt) < dayEnd;
    expect(names(await search("created_at:>=2026-10-10 created_at:<=2026-10-10"))).toEqual(names(all.filter(inDay)));
    expect(names(await search("created_at:>2026-10-10"))).toEqual(names(all.filter((row) => Date.parse(row.createdAt) >= dayEnd)));
    expect(names(await search("created_at:<2026-10-10"))).toEqual(names(all.filter((row) => Date.parse(row.createdAt) < dayStart)));
    expect(all.filter(inDay).length).toBeGreaterThan(0);
  });

  it("terms combine with AND, like the app's own query", async () => {
    const rows = await search("fulfillment_status:unshipped status:open");
    expect(names(rows)).toEqual(names(all.filter((row) => row.displayFulfillmentStatus === "UNFULFILLED" && !row.closed && !row.cancelledAt)));
    expect(names(await search("fulfillment_status:unshipped status:open name:1001"))).toEqual([]);
  });

  it("reports unknown search fields as a search warning instead of failing", async () => {
    const { body } = await t.post('{ orders(first: 250, query: "colour:blue") { nodes { id } } }');
    expect(body.data?.orders.nodes.length).toBe(all.length);
    expect(body.extensions?.search).toEqual([
      { path: "orders", query: "colour:blue", warnings: [expect.objectContaining({ field: "colour", code: "invalid_field" })] },
    ]);
  });
});

describe("orders search: free text and connectives", () => {
  it("a word searches the default fields: customer, city and country (name or code), accents and case ignored", async () => {
    expect(names(await search("Núñez"))).toEqual(names(await search("nunez")));
    expect(names(await search("nunez"))).toContain("#1051");
    expect(names(await search("madrid"))).toEqual(names(await search("Núñez Madrid")));
    const spain = names(await search("Spain"));
    expect(spain).toContain("#1051");
    expect(names(await search("ES"))).toEqual(expect.arrayContaining(spain));
    expect(names(await search("Madr"))).toContain("#1051");
    expect(await search("Zanzibar")).toEqual([]);
  });

  it("a number finds order names by prefix and other fields by whole word only", async () => {
    expect(names(await search("1051"))).toEqual(["#1051"]);
    expect(names(await search("104"))).toEqual(["#1040", "#1041", "#1042", "#1043", "#1044", "#1045", "#1046", "#1047", "#1048", "#1049"]);
    // Postcode 1040 (Bruxelles) is a whole word: the orders shipped there are found too.
    expect(names(await search("1040"))).toEqual(expect.arrayContaining(["#1040", "#1049"]));
  });

  it("OR, NOT, - and parentheses, AND binding tighter than OR", async () => {
    expect(names(await search("name:1051 OR name:1049"))).toEqual(["#1049", "#1051"]);
    expect(names(await search("madrid NOT name:1051"))).not.toContain("#1051");
    expect(names(await search("madrid -name:1051"))).toEqual(names(await search("madrid NOT name:1051")));
    expect(names(await search("name:1049 OR madrid name:1051"))).toEqual(["#1049", "#1051"]);
    expect(names(await search("(name:1049 OR madrid) name:1051"))).toEqual(["#1051"]);
  });

  it("refuses unbalanced parentheses and fails loudly on a documented field it does not emulate", async () => {
    const unbalanced = await t.post('{ orders(first: 5, query: "(name:1051") { nodes { id } } }');
    expect(unbalanced.body.errors?.[0]?.extensions?.code).toBe("NOT_EMULATED");
    const gateway = await t.post('{ orders(first: 5, query: "gateway:shopify_payments") { nodes { id } } }');
    expect(gateway.body.errors?.[0]?.message).toContain("gateway");
  });
});

describe("orders pagination", () => {
  const PAGE = `query P($first: Int, $after: String, $last: Int, $before: String, $sortKey: OrderSortKeys, $reverse: Boolean) {
    orders(first: $first, after: $after, last: $last, before: $before, sortKey: $sortKey, reverse: $reverse) {
      edges { cursor node { name } }
      nodes { name }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    } }`;

  it("walks forward with first/after and back with last/before over the same orders", async () => {
    const forward: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const data = await t.gql(PAGE, { first: 7, after, sortKey: "CREATED_AT" });
      const page = data.orders;
      expect(page.nodes.map((n: { name: string }) => n.name)).toEqual(page.edges.map((e: { node: { name: string } }) => e.node.name));
      expect(page.pageInfo.hasPreviousPage).toBe(pages > 0);
      expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
      forward.push(...page.nodes.map((n: { name: string }) => n.name));
      pages += 1;
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(Math.ceil(all.length / 7));
    const byCreated = [...all].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)).map((row) => row.name);
    expect(forward).toEqual(byCreated);

    const backward: string[] = [];
    let before: string | null = null;
    for (;;) {
      const data = await t.gql(PAGE, { last: 10, before, sortKey: "CREATED_AT" });
      backward.unshift(...data.orders.nodes.map((n: { name: string }) => n.name));
      if (!data.orders.pageInfo.hasPreviousPage) break;
      before = data.orders.pageInfo.startCursor;
    }
    expect(backward).toEqual(byCreated);
  });

  it("sorts by ORDER_NUMBER, ID and CREATED_AT, and reverses", async () => {
    const newest = await t.gql(PAGE, { first: 3, sortKey: "ORDER_NUMBER", reverse: true });
    const last3 = all.slice(-3).reverse().map((row) => row.name);
    expect(newest.orders.nodes.map((n: { name: string }) => n.name)).toEqual(last3);
    const byId = await t.gql(PAGE, { first: 2, sortKey: "ID" });
    expect(byId.orders.nodes.map((n: { name: string }) => n.name)).toEqual(["#1001", "#1002"]);
  });

  it("requires first or last and caps pages at 250, like the Admin API", async () => {
    const none = await t.post("{ orders { nodes { id } } }");
    expect(none.body.errors?.[0]?.message).toBe("you must provide one of first or last");
    const big = await t.post("{ orders(first: 251) { nodes { id } } }");
    expect(big.body.errors?.[0]?.message).toContain("between 0 and 250");
  });

  it("rejects a cursor that is not one of its own", async () => {
    const { body } = await t.post('{ orders(first: 2, after: "not-a-cursor") { nodes { id } } }');
    expect(body.errors?.[0]?.message).toContain("Invalid cursor");
  });
});
