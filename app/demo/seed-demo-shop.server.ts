/**
 * Prepares the demo shop in the app's database: the offline session the emulator accepts, and the staging
 * label-service account prefilled with the sandbox's demo account. Used by `npm run demo` only.
 */
import type { PrismaClient } from "../generated/prisma/client";
import { saveLabelServiceAccount } from "../labels/accounts.server";
import type { SecretBox } from "../security/secret-box.server";
import { defaultShippingSettings, shippingSettingsSchema } from "../shipping/settings";

/** The emulator seed's shop (Maison Étiquette, Paris) as the demo sender. */
export const DEMO_SHIPPING_SETTINGS = shippingSettingsSchema.parse({
  ...defaultShippingSettings,
  cn23: { category: "3", fallbackOriginCountry: "FR" },
  sender: {
    firstName: "",
    lastName: "Expéditions",
    company: "Maison Étiquette SAS",
    address1: "24 rue du Faubourg Saint-Antoine",
    address2: "Cour de l'Étoile d'Or",
    city: "Paris",
    zip: "75012",
    countryCode: "FR",
    phone: "+33 1 43 00 00 00",
    email: "boutique@maison-etiquette.example",
  },
});

export const DEMO_SHOP_DOMAIN = "etiquette-demo.myshopify.com";
export const DEMO_ACCESS_TOKEN = "shpat_etiquette_demo";
export const DEMO_SANDBOX_ACCOUNT = { email: "demo@etiquette.test", password: "demo-sandbox" } as const;
export const DEMO_SCOPES =
  "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,read_products,read_locations";

export async function seedDemoShop(db: PrismaClient, box: SecretBox): Promise<void> {
  const id = `offline_${DEMO_SHOP_DOMAIN}`;
  const session = { shop: DEMO_SHOP_DOMAIN, state: "demo", isOnline: false, scope: DEMO_SCOPES, accessToken: DEMO_ACCESS_TOKEN };
  await db.session.upsert({ where: { id }, create: { id, ...session }, update: session });
  const existing = await db.labelServiceAccount.findUnique({
    where: { shop_environment: { shop: DEMO_SHOP_DOMAIN, environment: "staging" } },
  });
  if (!existing) {
    await saveLabelServiceAccount(db, box, { shop: DEMO_SHOP_DOMAIN, environment: "staging", ...DEMO_SANDBOX_ACCOUNT });
  }
  // Prefilled once; a merchant's later edits in Settings are kept across demo restarts. The emulated shop is a
  // development store, so the demo fulfils its test labels in the emulator (decision 0170).
  await db.shopSettings.upsert({
    where: { shop: DEMO_SHOP_DOMAIN },
    create: { shop: DEMO_SHOP_DOMAIN, settingsJson: JSON.stringify(DEMO_SHIPPING_SETTINGS), fulfilTestLabels: true },
    update: {},
  });
}
