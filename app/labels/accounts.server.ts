/**
 * Label-service accounts per shop and environment. The password is stored encrypted (AES-256-GCM) and only ever
 * decrypted on the server to talk to the service; summaries for the browser never carry it.
 */
import type { PrismaClient } from "../generated/prisma/client";
import type { SecretBox } from "../security/secret-box.server";

import type { LabelEnvironment } from "./environments";

export { LABEL_ENVIRONMENTS, type LabelEnvironment } from "./environments";

export interface AccountSummary {
  environment: LabelEnvironment;
  email: string;
  passwordSaved: true;
  updatedAt: string;
}

export async function saveLabelServiceAccount(
  db: PrismaClient,
  box: SecretBox,
  input: { shop: string; environment: LabelEnvironment; email: string; password?: string },
): Promise<void> {
  const where = { shop_environment: { shop: input.shop, environment: input.environment } };
  if (!input.password) {
    // Keep the saved password, change the e-mail only (the form never receives the password back).
    const existing = await db.labelServiceAccount.findUnique({ where });
    if (!existing) throw new Error("a password is required the first time an account is saved");
    await db.labelServiceAccount.update({ where, data: { email: input.email } });
    return;
  }
  const { ciphertext, keyVersion } = box.encrypt(input.password);
  await db.labelServiceAccount.upsert({
    where,
    create: {
      shop: input.shop,
      environment: input.environment,
      email: input.email,
      passwordCiphertext: ciphertext,
      keyVersion,
    },
    update: { email: input.email, passwordCiphertext: ciphertext, keyVersion },
  });
}

/** Server-side only: the decrypted credentials, or null when none are saved. */
export async function loadLabelServiceCredentials(
  db: PrismaClient,
  box: SecretBox,
  shop: string,
  environment: LabelEnvironment,
): Promise<{ email: string; password: string } | null> {
  const row = await db.labelServiceAccount.findUnique({ where: { shop_environment: { shop, environment } } });
  if (!row) return null;
  return { email: row.email, password: box.decrypt(row.passwordCiphertext) };
}

/** Safe for the browser: which accounts exist, never the password. */
export async function accountSummaries(db: PrismaClient, shop: string): Promise<AccountSummary[]> {
  const rows = await db.labelServiceAccount.findMany({ where: { shop }, orderBy: { environment: "desc" } });
  return rows.map((row) => ({
    environment: row.environment as LabelEnvironment,
    email: row.email,
    passwordSaved: true as const,
    updatedAt: row.updatedAt.toISOString(),
  }));
}
