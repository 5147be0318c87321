import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { getEnvironment, setEnvironment } from "./environment.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());
const SHOP = "env-shop.myshopify.com";
const base = { shop: SHOP, confirmedBy: "owner@shop.test", productionConfigured: true };

describe("environment switch", () => {
  it("defaults to staging", async () => {
    expect((await getEnvironment(db, SHOP)).environment).toBe("staging");
  });

  it("refuses production without the charge confirmation, the production URL, or a production account", async () => {
    expect(await setEnvironment(db, { ...base, environment: "production", confirmedCharges: false })).toEqual({ ok: false, code: "confirmation_required" });
    expect(await setEnvironment(db, { ...base, environment: "production", confirmedCharges: true, productionConfigured: false })).toEqual({
      ok: false,
      code: "production_not_configured",
    });
    expect(await setEnvironment(db, { ...base, environment: "production", confirmedCharges: true })).toEqual({ ok: false, code: "account_missing" });
    expect((await getEnvironment(db, SHOP)).environment).toBe("staging");
  });

  it("switches to production when confirmed, records who and when, and back to staging", async () => {
    await db.labelServiceAccount.create({ data: { shop: SHOP, environment: "production", email: "p@x.test", passwordCiphertext: "v1:x", keyVersion: 1 } });
    const result = await setEnvironment(db, { ...base, environment: "production", confirmedCharges: true });
    expect(result.ok && result.state).toMatchObject({ environment: "production", productionConfirmedBy: "owner@shop.test" });
    expect((await getEnvironment(db, SHOP)).productionConfirmedAt).toBeInstanceOf(Date);
    await setEnvironment(db, { ...base, environment: "staging", confirmedCharges: false });
    expect(await getEnvironment(db, SHOP)).toEqual({ environment: "staging", productionConfirmedAt: null, productionConfirmedBy: null });
  });
});
