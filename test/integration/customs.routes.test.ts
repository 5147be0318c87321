/**
 * The customs descriptions page through its own loader and action, against the Shopify emulator (the demo's orders),
 * and the order page reading what it saved. Only the embedded-auth step is replaced, as in routes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_SHOP, DEMO_TOKEN, startTestEmulator, type TestEmulator } from "../../emulators/shopify-admin/test-helpers";
import type { PrismaClient } from "../../app/generated/prisma/client";
import { appTestEnv } from "../helpers/app-env";
import { createTestDatabaseUrl } from "../helpers/test-db";
import { realAdminFor } from "../helpers/real-admin";
import type * as CustomsRoute from "../../app/routes/app.customs";

const signedIn = vi.hoisted(() => ({ current: undefined as undefined | { shop: string; admin: unknown } }));
vi.mock("../../app/auth.server", () => ({
  requireAdmin: async () => {
    if (!signedIn.current) throw new Response("Unauthorized", { status: 401 });
    return { ...signedIn.current, session: { id: `offline_${signedIn.current.shop}`, shop: signedIn.current.shop }, demo: false };
  },
}));

const database = createTestDatabaseUrl();
let db: PrismaClient;
let emulator: TestEmulator;
let customs: typeof CustomsRoute;
let admin: unknown;

beforeAll(async () => {
  emulator = await startTestEmulator();
  Object.assign(process.env, appTestEnv(database.url));
  db = (await import("../../app/db.server")).default;
  admin = await realAdminFor(emulator.emulator.url, db, DEMO_SHOP, DEMO_TOKEN);
  signedIn.current = { shop: DEMO_SHOP, admin };
  customs = await import("../../app/routes/app.customs");
});

afterAll(async () => {
  await emulator.emulator.close();
  await db.$disconnect();
  database.cleanup();
});

const load = async () => (await customs.loader({ request: new Request("https://app.test/app/customs"), params: {}, context: {} } as never)).rows;
const save = (fields: Record<string, string>) =>
  customs.action({
    request: new Request("https://app.test/app/customs", { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } }),
    params: {},
    context: {},
  } as never);

describe("customs descriptions page", () => {
  it("lists the recent orders' products, unsaved, each starting from its title without accents", async () => {
    const rows = await load();
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((row) => !row.saved && /^gid:\/\/shopify\/Product\/[0-9]+$/.test(row.productId) && !/[À-ÿ]/.test(row.description))).toBe(true);
    expect(rows.map((row) => row.orderCount)).toEqual([...rows.map((row) => row.orderCount)].sort((a, b) => b! - a!));
  });

  it("saves one product's description for this shop only, and refuses French in the merchant's terms", async () => {
    const [first] = await load();
    expect(await save({ productId: first!.productId, productTitle: first!.title, description: "Thé vert" })).toEqual({ ok: false, productId: first!.productId, error: "not_plain_english" });
    expect(await save({ productId: first!.productId, productTitle: first!.title, description: "Organic cotton T-shirt" })).toMatchObject({ ok: true });
    const [again] = await load();
    expect(again).toMatchObject({ productId: first!.productId, saved: true, description: "Organic cotton T-shirt" });
    signedIn.current = { shop: "other-shop.myshopify.com", admin };
    try {
      expect((await load()).find((row) => row.productId === first!.productId)).toMatchObject({ saved: false });
    } finally {
      signedIn.current = { shop: DEMO_SHOP, admin };
    }
  });

  it("the order page shows a saved description on the product's CN23 line and marks the line saved", async () => {
    const { loadOrderLabel } = await import("../../app/labels/order-label.server");
    // #1035 (Zürich, DHL): its product's English description, then every line's product as the page offers to save.
    const view = (await loadOrderLabel(db, admin as never, DEMO_SHOP, "7100001035"))!;
    const line = view.customsLines[0]!;
    expect(await save({ productId: line.productId!, productTitle: line.title, description: "Black tea, Darjeeling" })).toMatchObject({ ok: true });
    const after = (await loadOrderLabel(db, admin as never, DEMO_SHOP, "7100001035"))!;
    expect(after.preview?.cn23_data?.products[0]?.description).toBe("Black tea, Darjeeling");
    expect(after.customsLines[0]).toMatchObject({ productId: line.productId, saved: true });
    expect(after.problems.filter((problem) => problem.code === "customs_description_missing").map((problem) => problem.path)).not.toContain("cn23_data.products[0].description");
    expect(view.problems.some((problem) => problem.code === "customs_description_missing" && problem.severity === "warning")).toBe(true);
  });
});
