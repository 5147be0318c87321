import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { getEnvironment, setEnvironment, staffUserIdOf } from "./environment.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());
const SHOP = "env-shop.myshopify.com";
const base = { shop: SHOP, confirmedBy: "8472", productionConfigured: true };

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
    expect(result.ok && result.state).toMatchObject({ environment: "production", productionConfirmedBy: "8472" });
    expect((await getEnvironment(db, SHOP)).productionConfirmedAt).toBeInstanceOf(Date);
    await setEnvironment(db, { ...base, environment: "staging", confirmedCharges: false });
    expect(await getEnvironment(db, SHOP)).toEqual({ environment: "staging", productionConfirmedAt: null, productionConfirmedBy: null });
  });

  it("refuses production when no staff member is known, e.g. only the shop's offline session id", async () => {
    const shop = "no-staff.myshopify.com";
    await db.labelServiceAccount.create({ data: { shop, environment: "production", email: "p@x.test", passwordCiphertext: "v1:x", keyVersion: 1 } });
    for (const confirmedBy of [null, `offline_${shop}`, ""]) {
      expect(await setEnvironment(db, { ...base, shop, confirmedBy, environment: "production", confirmedCharges: true })).toEqual({ ok: false, code: "staff_unknown" });
    }
    expect((await getEnvironment(db, shop)).environment).toBe("staging");
  });

  it("does not show an offline session id stored before staff members were recorded as a person", async () => {
    const shop = "legacy.myshopify.com";
    await db.shopSettings.create({ data: { shop, environment: "production", productionConfirmedAt: new Date(), productionConfirmedBy: `offline_${shop}` } });
    expect((await getEnvironment(db, shop)).productionConfirmedBy).toBeNull();
  });
});

describe("staffUserIdOf", () => {
  it("takes the session token's sub, then an online session's user, and nothing from an offline session", () => {
    expect(staffUserIdOf({ sessionToken: { sub: "8472" }, session: { onlineAccessInfo: null } })).toBe("8472");
    expect(staffUserIdOf({ sessionToken: undefined, session: { onlineAccessInfo: { associated_user: { id: 91 } } } })).toBe("91");
    expect(staffUserIdOf({ sessionToken: undefined, session: { onlineAccessInfo: undefined } })).toBeNull();
    expect(staffUserIdOf({ sessionToken: { sub: "offline_x.myshopify.com" } })).toBeNull();
  });
});
