import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { createSecretBox } from "../security/secret-box.server";
import { accountSummaries, loadLabelServiceCredentials, saveLabelServiceAccount } from "./accounts.server";

const database = createTestDatabase();
const db = database.prisma;
const box = createSecretBox(new Map([[1, Buffer.alloc(32, 9)]]), 1);
afterAll(() => database.close());

describe("label-service accounts", () => {
  it("stores the password encrypted and gives it back only to the server", async () => {
    await saveLabelServiceAccount(db, box, { shop: "a.myshopify.com", environment: "staging", email: "ops@a.test", password: "s3cret-pass" });
    const row = await db.labelServiceAccount.findFirstOrThrow({ where: { shop: "a.myshopify.com" } });
    expect(row.passwordCiphertext).not.toContain("s3cret-pass");
    expect(row.keyVersion).toBe(1);
    expect(await loadLabelServiceCredentials(db, box, "a.myshopify.com", "staging")).toEqual({ email: "ops@a.test", password: "s3cret-pass" });
  });

  it("summaries never carry the password", async () => {
    const summaries = await accountSummaries(db, "a.myshopify.com");
    expect(summaries).toHaveLength(1);
    expect(JSON.stringify(summaries)).not.toContain("s3cret");
    expect(JSON.stringify(summaries)).not.toContain("v1:");
    expect(Object.keys(summaries[0]!)).not.toContain("passwordCiphertext");
  });

  it("keeps the saved password when only the e-mail changes", async () => {
    await saveLabelServiceAccount(db, box, { shop: "a.myshopify.com", environment: "staging", email: "new@a.test" });
    expect(await loadLabelServiceCredentials(db, box, "a.myshopify.com", "staging")).toEqual({ email: "new@a.test", password: "s3cret-pass" });
    await expect(saveLabelServiceAccount(db, box, { shop: "a.myshopify.com", environment: "production", email: "x@a.test" })).rejects.toThrow(/password is required/);
  });

  it("is scoped by shop and environment", async () => {
    expect(await loadLabelServiceCredentials(db, box, "b.myshopify.com", "staging")).toBeNull();
    expect(await loadLabelServiceCredentials(db, box, "a.myshopify.com", "production")).toBeNull();
    expect(await accountSummaries(db, "b.myshopify.com")).toEqual([]);
  });
});
