/**
 * The settings page's actions as plain functions: form data in (parsed with zod), a typed result out. The route
 * only authenticates and renders. Each failure names the field and says what to do (message keys, en and fr).
 */
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import type { MessageKey } from "../i18n/messages";
import { LABEL_ENVIRONMENTS, loadLabelServiceCredentials, saveLabelServiceAccount, type LabelEnvironment } from "../labels/accounts.server";
import type { SecretBox } from "../security/secret-box.server";
import { setEnvironment } from "./environment.server";

export type ConnectionTester = (
  environment: LabelEnvironment,
  credentials: { email: string; password: string },
) => Promise<{ ok: true } | { ok: false; message: string; messageFr?: string }>;

export interface SettingsContext {
  db: PrismaClient;
  box: SecretBox;
  shop: string;
  /** The staff member acting (Shopify user id from the session token), null when unknown. */
  staffUserId: string | null;
  productionConfigured: boolean;
  testConnection: ConnectionTester;
}

export type SettingsActionResult =
  | { intent: string; environment?: string; ok: true; messageKey: MessageKey; values?: Record<string, string> }
  | {
      intent: string;
      environment?: string;
      ok: false;
      fieldErrors?: Record<string, MessageKey>;
      messageKey?: MessageKey;
      values?: Record<string, string>;
    };

const environment = z.enum(LABEL_ENVIRONMENTS);

const accountForm = z.object({
  environment,
  email: z.email(),
  password: z.string().max(500).optional().transform((value) => (value ? value : undefined)),
});

export async function handleSettingsAction(context: SettingsContext, form: FormData): Promise<SettingsActionResult> {
  const intent = String(form.get("intent") ?? "");
  const fields = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));

  if (intent === "saveAccount") {
    const parsed = accountForm.safeParse(fields);
    const target = fields.environment;
    if (!parsed.success) {
      return { intent, environment: target, ok: false, fieldErrors: { email: "settings.account.emailInvalid" } };
    }
    try {
      await saveLabelServiceAccount(context.db, context.box, { shop: context.shop, ...parsed.data });
    } catch {
      return { intent, environment: target, ok: false, fieldErrors: { password: "settings.account.passwordRequired" } };
    }
    return { intent, environment: target, ok: true, messageKey: "settings.saved" };
  }

  if (intent === "testConnection") {
    const env = environment.safeParse(fields.environment);
    if (!env.success) return { intent, ok: false, messageKey: "settings.account.none" };
    const credentials = await loadLabelServiceCredentials(context.db, context.box, context.shop, env.data);
    if (!credentials) return { intent, ok: false, messageKey: "settings.account.none" };
    const result = await context.testConnection(env.data, credentials);
    return result.ok
      ? { intent, ok: true, messageKey: "settings.account.testOk" }
      : {
          intent,
          ok: false,
          messageKey: "settings.account.testFailed",
          values: { message: result.message, messageFr: result.messageFr ?? result.message },
        };
  }

  if (intent === "setEnvironment") {
    const env = environment.safeParse(fields.environment);
    if (!env.success) return { intent, ok: false, messageKey: "settings.env.error.confirmation_required" };
    const change = await setEnvironment(context.db, {
      shop: context.shop,
      environment: env.data,
      confirmedCharges: fields.confirmCharges === "on" || fields.confirmCharges === "true",
      confirmedBy: context.staffUserId,
      productionConfigured: context.productionConfigured,
    });
    if (change.ok) return { intent, ok: true, messageKey: "settings.saved" };
    return { intent, ok: false, messageKey: `settings.env.error.${change.code}` };
  }

  throw new Response(`Unknown settings action "${intent}"`, { status: 400 });
}
