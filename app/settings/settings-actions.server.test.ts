import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { loadLabelServiceCredentials } from "../labels/accounts.server";
import { createSecretBox } from "../security/secret-box.server";
import { getEnvironment } from "./environment.server";
import { handleSettingsAction, type ConnectionTester, type SettingsContext } from "./settings-actions.server";

const database = createTestDatabase();
afterAll(() => database.close());
const box = createSecretBox(new Map([[1, Buffer.alloc(32, 3)]]), 1);
const tested: { environment: string; email: string }[] = [];
const tester: ConnectionTester = async (environment, credentials) => {
  tested.push({ environment, email: credentials.email });
  return credentials.password === "right" ? { ok: true } : { ok: false, message: "401 identifiants invalides" };
};

function context(shop: string, overrides: Partial<SettingsContext> = {}): SettingsContext {
  return { db: database.prisma, box, shop, staffUserId: "8472", productionConfigured: true, testConnection: tester, ...overrides };
}

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

describe("settings actions", () => {
  it("saves an account, then tests the connection with the stored credentials", async () => {
    const ctx = context("a.myshopify.com");
    expect(await handleSettingsAction(ctx, form({ intent: "saveAccount", environment: "staging", email: "ops@a.test", password: "right" }))).toMatchObject({ ok: true });
    expect(await handleSettingsAction(ctx, form({ intent: "testConnection", environment: "staging" }))).toMatchObject({ ok: true, messageKey: "settings.account.testOk" });
    expect(tested.at(-1)).toEqual({ environment: "staging", email: "ops@a.test" });
  });

  it("reports a failed connection with the service's reason", async () => {
    const ctx = context("b.myshopify.com");
    await handleSettingsAction(ctx, form({ intent: "saveAccount", environment: "staging", email: "ops@b.test", password: "wrong" }));
    expect(await handleSettingsAction(ctx, form({ intent: "testConnection", environment: "staging" }))).toEqual({
      intent: "testConnection",
      ok: false,
      messageKey: "settings.account.testFailed",
      values: { message: "401 identifiants invalides", messageFr: "401 identifiants invalides" },
    });
  });

  it("names the bad field", async () => {
    const ctx = context("c.myshopify.com");
    expect(await handleSettingsAction(ctx, form({ intent: "saveAccount", environment: "staging", email: "not-an-email", password: "x" }))).toMatchObject({
      ok: false,
      fieldErrors: { email: "settings.account.emailInvalid" },
    });
    expect(await handleSettingsAction(ctx, form({ intent: "saveAccount", environment: "production", email: "p@c.test" }))).toMatchObject({
      ok: false,
      fieldErrors: { password: "settings.account.passwordRequired" },
    });
    expect(await handleSettingsAction(ctx, form({ intent: "testConnection", environment: "production" }))).toMatchObject({ ok: false, messageKey: "settings.account.none" });
  });

  it("switches to production only with the confirmation box", async () => {
    const ctx = context("d.myshopify.com");
    await handleSettingsAction(ctx, form({ intent: "saveAccount", environment: "production", email: "p@d.test", password: "right" }));
    expect(await handleSettingsAction(ctx, form({ intent: "setEnvironment", environment: "production" }))).toMatchObject({
      ok: false,
      messageKey: "settings.env.error.confirmation_required",
    });
    expect(await handleSettingsAction(ctx, form({ intent: "setEnvironment", environment: "production", confirmCharges: "on" }))).toMatchObject({ ok: true });
    expect((await getEnvironment(database.prisma, "d.myshopify.com")).environment).toBe("production");
  });

  it("never touches another shop's account", async () => {
    await handleSettingsAction(context("e.myshopify.com"), form({ intent: "saveAccount", environment: "staging", email: "e@e.test", password: "right" }));
    expect(await loadLabelServiceCredentials(database.prisma, box, "a.myshopify.com", "staging")).toMatchObject({ email: "ops@a.test" });
  });

  it("rejects an unknown intent with 400", async () => {
    await expect(handleSettingsAction(context("a.myshopify.com"), form({ intent: "dropTables" }))).rejects.toMatchObject({ status: 400 });
  });
});
