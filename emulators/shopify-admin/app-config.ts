/**
 * The app's own configuration, as Shopify applies it on `shopify app deploy`: metafield definitions declared in
 * `shopify.app.toml` under `[<owner>.metafields.app.<key>]` exist in every shop the app is installed on, owned by
 * the app (namespace `$app`), with the declared type and access. The emulator installs them at start and on reset.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import toml from "toml";
import { z } from "zod";
import { resolveNamespace, type MetafieldDefinitionState, type ShopState } from "./state";
import { METAFIELD_TYPES } from "./mutations";

export const DEFAULT_APP_CONFIG_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../shopify.app.toml");

export type MetafieldAdminAccess = "MERCHANT_READ" | "MERCHANT_READ_WRITE" | "PRIVATE";

export interface DeclaredDefinition {
  ownerType: "ORDER" | "SHOP";
  key: string;
  name: string;
  type: string;
  description: string | null;
  access: { admin: MetafieldAdminAccess; storefront: "NONE" | "PUBLIC_READ"; customerAccount: "NONE" | "READ" | "READ_WRITE" };
}

/** Owner types the emulator has metafields for (the TOML table name on the left). */
const OWNERS = { order: "ORDER", shop: "SHOP" } as const;

const definitionSchema = z
  .object({
    type: z.string().refine((type) => METAFIELD_TYPES.has(type), "is not a metafield type the emulator knows"),
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    access: z
      .object({
        // Only the merchant_* values are accepted for app-owned definitions; no access key means private to the app.
        admin: z.enum(["merchant_read", "merchant_read_write"]).optional(),
        storefront: z.enum(["none", "public_read"]).optional(),
        customer_account: z.enum(["none", "read", "read_write"]).optional(),
      })
      .strict()
      .default({}),
  })
  .passthrough();

export class AppConfigError extends Error {}

/** The metafield definitions a shopify.app.toml declares. Anything it cannot honour fails loudly. */
export function declaredDefinitions(tomlText: string, source = "shopify.app.toml"): DeclaredDefinition[] {
  let parsed: Record<string, unknown>;
  try {
    parsed = toml.parse(tomlText) as Record<string, unknown>;
  } catch (error) {
    throw new AppConfigError(`${source}: not TOML the emulator can read (${error instanceof Error ? error.message : String(error)})`);
  }
  const declared: DeclaredDefinition[] = [];
  for (const [owner, table] of Object.entries(parsed)) {
    const app = (table as { metafields?: { app?: unknown } } | null)?.metafields?.app;
    if (!app || typeof app !== "object") continue;
    const ownerType = (OWNERS as Record<string, "ORDER" | "SHOP" | undefined>)[owner];
    if (!ownerType) throw new AppConfigError(`${source}: [${owner}.metafields.app.*] definitions are not emulated`);
    for (const [key, raw] of Object.entries(app as Record<string, unknown>)) {
      const checked = definitionSchema.safeParse(raw);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw new AppConfigError(`${source}: [${owner}.metafields.app.${key}] ${issue?.path.join(".") || "definition"} ${issue?.message ?? "is invalid"}`);
      }
      const { type, name, description, access } = checked.data;
      declared.push({
        ownerType,
        key,
        name: name ?? key,
        type,
        description: description ?? null,
        access: {
          admin: access.admin ? (access.admin.toUpperCase() as MetafieldAdminAccess) : "PRIVATE",
          storefront: access.storefront === "public_read" ? "PUBLIC_READ" : "NONE",
          customerAccount: access.customer_account ? (access.customer_account.toUpperCase() as "NONE" | "READ" | "READ_WRITE") : "NONE",
        },
      });
    }
  }
  return declared;
}

export function loadAppConfig(file: string = DEFAULT_APP_CONFIG_FILE): DeclaredDefinition[] {
  return declaredDefinitions(fs.readFileSync(file, "utf8"), path.relative(process.cwd(), file) || file);
}

/** Creates or updates the declared definitions in a shop, as a deploy would. */
export function applyDeclaredDefinitions(shop: ShopState, declared: readonly DeclaredDefinition[], nextId: () => number): void {
  for (const definition of declared) {
    const namespace = resolveNamespace("$app", shop.appId);
    const existing = shop.definitions.find((d) => d.ownerType === definition.ownerType && d.namespace === namespace && d.key === definition.key);
    const fields: Omit<MetafieldDefinitionState, "id"> = {
      ownerType: definition.ownerType,
      namespace,
      key: definition.key,
      name: definition.name,
      type: definition.type,
      description: definition.description,
      pinned: existing?.pinned ?? false,
      access: definition.access,
      fromAppConfig: true,
    };
    if (existing) Object.assign(existing, fields);
    else shop.definitions.push({ id: nextId(), ...fields });
  }
}
