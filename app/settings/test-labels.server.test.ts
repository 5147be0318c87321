import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { createTestDatabase } from "../../test/helpers/test-db";
import { fulfilTestLabelsSetting, testLabelsAction, testLabelsState } from "./test-labels.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());
beforeEach(() => db.shopSettings.deleteMany());

const SHOP = "settings.myshopify.com";
const plan = (partnerDevelopment: boolean) => mockAdmin({ ShopPlan: () => ({ data: { shop: { plan: { partnerDevelopment } } } }) });
const form = (on: string) => {
  const data = new FormData();
  data.set("intent", "setFulfilTestLabels");
  data.set("on", on);
  return data;
};

describe("the 'fulfil with test labels' setting", () => {
  it("is off for a shop that never set it", async () => {
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(false);
    expect(await testLabelsState({ db, admin: plan(true) }, SHOP)).toEqual({ on: false, developmentStore: true });
  });

  it("turns on for a development store, and off again", async () => {
    expect(await testLabelsAction({ db, admin: plan(true) }, SHOP, form("true"))).toMatchObject({ ok: true, messageKey: "real.testLabels.saved" });
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(true);
    expect(await testLabelsAction({ db, admin: plan(false) }, SHOP, form("false"))).toMatchObject({ ok: true });
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(false);
  });

  it("is refused, named, on a store that is not a development store", async () => {
    expect(await testLabelsAction({ db, admin: plan(false) }, SHOP, form("true"))).toEqual({
      intent: "setFulfilTestLabels",
      ok: false,
      messageKey: "real.testLabels.error.not_development_store",
    });
    expect(await fulfilTestLabelsSetting(db, SHOP)).toBe(false);
  });

  it("counts a plan Shopify did not answer as 'not a development store' on the page", async () => {
    const broken = mockAdmin({ ShopPlan: () => new Response("boom", { status: 500 }) });
    expect(await testLabelsState({ db, admin: broken }, SHOP)).toEqual({ on: false, developmentStore: false });
  });
});
