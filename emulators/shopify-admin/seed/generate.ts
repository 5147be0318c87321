/**
 * Generates seed/default.json deterministically (no clock, no Math.random): `npx tsx emulators/shopify-admin/seed/generate.ts`.
 * The default shop is a French tea-and-books shop in Paris; the orders cover the cases the label flow must handle
 * (see docs/readme/shopify-emulator.md, "The default seed").
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseSeed, type Seed } from "../seed";

type Address = {
  firstName: string | null;
  lastName: string | null;
  company?: string | null;
  address1: string;
  address2?: string | null;
  city: string;
  zip: string | null;
  province?: string | null;
  provinceCode?: string | null;
  countryCode: string;
  phone: string | null;
};

/** mulberry32: a tiny deterministic PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let random = prng(20261001);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const V = {
  petitPrince: 44000001,
  atlas: 44000002,
  carnet: 44000003,
  sencha: 44000011,
  darjeeling: 44000012,
  verveine: 44000013,
  bol: 44000021,
  theiere: 44000022,
  tasse: 44000023,
  tshirtS: 44000031,
  tshirtM: 44000032,
  tshirtL: 44000033,
  pull: 44000034,
  tote: 44000035,
  epub: 44000041,
  giftCard25: 44000042,
  giftCard50: 44000043,
  giftCardPrinted: 44000044,
  atelier: 44000045,
} as const;

const products: NonNullable<Seed["shops"][number]["products"]> = [
  { id: 9100001, title: "Le Petit Prince — édition illustrée", vendor: "Éditions du Marais", productType: "Livre", variants: [{ id: V.petitPrince, sku: "LIV-PP-ILL", price: "18.90", weight: { value: 320, unit: "GRAMS" }, harmonizedSystemCode: "490199", countryCodeOfOrigin: "FR" }] },
  { id: 9100002, title: "Atlas des cuisines du monde", vendor: "Éditions du Marais", productType: "Livre", variants: [{ id: V.atlas, sku: "LIV-ATLAS", price: "39.00", weight: { value: 1.2, unit: "KILOGRAMS" }, harmonizedSystemCode: "490199", countryCodeOfOrigin: "BE" }] },
  { id: 9100003, title: "Carnet de voyage relié cuir", vendor: "Papeterie Lutèce", productType: "Papeterie", variants: [{ id: V.carnet, sku: "PAP-CARNET-CUIR", price: "24.00", weight: { value: 0.45, unit: "POUNDS" }, harmonizedSystemCode: "482010", countryCodeOfOrigin: "IT" }] },
  { id: 9100011, title: "Thé vert Sencha bio", vendor: "Maison Étiquette", productType: "Thé", variants: [{ id: V.sencha, title: "100 g", sku: "THE-SENCHA-100", price: "12.50", weight: { value: 3.5, unit: "OUNCES" }, harmonizedSystemCode: "090210", countryCodeOfOrigin: "JP" }] },
  { id: 9100012, title: "Thé noir Darjeeling First Flush", vendor: "Maison Étiquette", productType: "Thé", variants: [{ id: V.darjeeling, title: "250 g", sku: "THE-DARJ-250", price: "21.00", weight: { value: 0.3, unit: "KILOGRAMS" }, harmonizedSystemCode: "090240", countryCodeOfOrigin: "IN" }] },
  { id: 9100013, title: "Infusion verveine du Velay", vendor: "Maison Étiquette", productType: "Infusion", variants: [{ id: V.verveine, title: "80 g", sku: "INF-VERV-80", price: "9.80", weight: { value: 80, unit: "GRAMS" }, harmonizedSystemCode: null, countryCodeOfOrigin: "FR" }] },
  { id: 9100021, title: "Bol en grès émaillé", vendor: "Atelier Faïence", productType: "Céramique", variants: [{ id: V.bol, sku: "CER-BOL-GRES", price: "28.00", weight: { value: 1.1, unit: "POUNDS" }, harmonizedSystemCode: "691200", countryCodeOfOrigin: "PT" }] },
  { id: 9100022, title: "Théière en fonte Tetsubin", vendor: "Atelier Faïence", productType: "Céramique", variants: [{ id: V.theiere, sku: "CER-THEIERE-FONTE", price: "65.00", weight: { value: 1.4, unit: "KILOGRAMS" }, harmonizedSystemCode: "732393", countryCodeOfOrigin: null }] },
  { id: 9100023, title: "Tasse à thé porcelaine de Limoges", vendor: "Atelier Faïence", productType: "Céramique", variants: [{ id: V.tasse, sku: "CER-TASSE-LIM", price: "32.00", weight: { value: 180, unit: "GRAMS" }, harmonizedSystemCode: "691110", countryCodeOfOrigin: "FR" }] },
  {
    id: 9100031,
    title: "T-shirt coton bio « Thé time »",
    vendor: "Maison Étiquette",
    productType: "Vêtement",
    variants: [
      { id: V.tshirtS, title: "S", sku: "TEE-BIO-S", price: "29.00", weight: { value: 160, unit: "GRAMS" }, harmonizedSystemCode: "610910", countryCodeOfOrigin: "PT" },
      { id: V.tshirtM, title: "M", sku: "TEE-BIO-M", price: "29.00", weight: { value: 170, unit: "GRAMS" }, harmonizedSystemCode: "610910", countryCodeOfOrigin: "PT" },
      { id: V.tshirtL, title: "L", sku: "TEE-BIO-L", price: "29.00", weight: { value: 185, unit: "GRAMS" }, harmonizedSystemCode: "610910", countryCodeOfOrigin: "PT" },
    ],
  },
  { id: 9100034, title: "Pull marin en laine", vendor: "Tricots de Bretagne", productType: "Vêtement", variants: [{ id: V.pull, title: "M / Écru", sku: "PULL-MARIN-M", price: "89.00", weight: { value: 650, unit: "GRAMS" }, harmonizedSystemCode: "611011", countryCodeOfOrigin: "FR" }] },
  { id: 9100035, title: "Tote bag Étiquette", vendor: "Maison Étiquette", productType: "Accessoire", variants: [{ id: V.tote, sku: "ACC-TOTE", price: "15.00", weight: { value: 0, unit: "GRAMS" }, harmonizedSystemCode: "420222", countryCodeOfOrigin: "IN" }] },
  { id: 9100041, title: "Guide du thé (livre numérique EPUB)", vendor: "Éditions du Marais", productType: "Livre numérique", variants: [{ id: V.epub, sku: "EBOOK-GUIDE-THE", price: "9.99", requiresShipping: false, weight: { value: 0, unit: "GRAMS" } }] },
  {
    id: 9100042,
    title: "Carte cadeau Étiquette",
    vendor: "Maison Étiquette",
    productType: "Carte cadeau",
    variants: [
      { id: V.giftCard25, title: "25 €", sku: null, price: "25.00", requiresShipping: false, isGiftCard: true },
      { id: V.giftCard50, title: "50 €", sku: null, price: "50.00", requiresShipping: false, isGiftCard: true },
    ],
  },
  { id: 9100044, title: "Carte cadeau imprimée (envoyée par la poste)", vendor: "Maison Étiquette", productType: "Carte cadeau", variants: [{ id: V.giftCardPrinted, title: "40 €", sku: "GC-PRINT-40", price: "40.00", isGiftCard: true, weight: { value: 20, unit: "GRAMS" } }] },
  { id: 9100045, title: "Atelier dégustation (billet)", vendor: "Maison Étiquette", productType: "Service", variants: [{ id: V.atelier, sku: "ATELIER-DEGUST", price: "45.00", requiresShipping: false }] },
];

const BOOKS = new Set<number>([V.petitPrince, V.atlas, V.epub]);
const PRICES = new Map<number, string>(products.flatMap((p) => p.variants.map((v) => [v.id, String(v.price)] as const)));

const EU = new Set(["FR", "DE", "BE", "ES", "IT", "NL"]);

const ADDRESSES: Record<string, Address> = {
  paris: { firstName: "Marie", lastName: "Dupont", address1: "12 rue des Écoles", city: "Paris", zip: "75005", countryCode: "FR", phone: "+33 6 12 34 56 78" },
  lyon: { firstName: "Élodie", lastName: "Lefèvre", company: "Librairie du Parc", address1: "48 avenue du Maréchal de Saxe", address2: "Bâtiment B, 3e étage", city: "Lyon", zip: "69003", countryCode: "FR", phone: "04 78 12 34 56" },
  marseille: { firstName: "Jean-Baptiste", lastName: "Moreau", address1: "7 boulevard de la Libération", city: "Marseille", zip: "13001", countryCode: "FR", phone: null },
  nice: { firstName: "Ségolène", lastName: "Fournier-Østergaard", address1: "Résidence Les Jardins de la Côte d'Azur, appartement 1204, escalier C, porte gauche", address2: "Chez M. et Mme Fournier-Østergaard, sonner deux fois", city: "Nice", zip: "06000", countryCode: "FR", phone: "0493000000" },
  lille: { firstName: "فاطمة", lastName: "الزهراء", address1: "3 place du Théâtre", city: "Lille", zip: "59800", countryCode: "FR", phone: "+33 3 20 00 00 00" },
  ajaccio: { firstName: "Paul", lastName: "Santoni", address1: "2 cours Napoléon", city: "Ajaccio", zip: "20000", countryCode: "FR", phone: "06 11 22 33 44" },
  reunionAsFr: { firstName: "Nathalie", lastName: "Payet", address1: "15 rue de Paris", city: "Saint-Denis", zip: "97400", countryCode: "FR", phone: "0262 21 00 00" },
  berlin: { firstName: "Jürgen", lastName: "Weiß", address1: "Schönhauser Allee 36", city: "Berlin", zip: "10435", countryCode: "DE", phone: "+49 30 1234567" },
  munich: { firstName: "Дмитрий", lastName: "Иванов", company: "Müller & Söhne GmbH", address1: "Leopoldstraße 120", address2: "Hinterhaus, 2. OG", city: "München", zip: "80802", countryCode: "DE", phone: null },
  brussels: { firstName: "Amélie", lastName: "Van den Broeck", address1: "Rue de la Loi 155", address2: "Boîte 3", city: "Bruxelles", zip: "1040", countryCode: "BE", phone: "+32 2 123 45 67" },
  madrid: { firstName: "José Ángel", lastName: "Núñez Peña", address1: "Calle de Alcalá 221", address2: "3º izquierda", city: "Madrid", zip: "28028", province: "Madrid", provinceCode: "M", countryCode: "ES", phone: "+34 612 345 678" },
  canarias: { firstName: "Carmen", lastName: "Rodríguez", address1: "Calle Triana 42", city: "Las Palmas de Gran Canaria", zip: "35002", province: "Las Palmas", provinceCode: "GC", countryCode: "ES", phone: "+34 928 000 000" },
  rome: { firstName: "Giulia", lastName: "Bianchi", address1: "Via dei Coronari 18", city: "Roma", zip: "00186", province: "Roma", provinceCode: "RM", countryCode: "IT", phone: "+39 06 1234 5678" },
  amsterdam: { firstName: "Sanne", lastName: "de Vries", address1: "Prinsengracht 263", address2: "3hoog", city: "Amsterdam", zip: "1016 GV", countryCode: "NL", phone: "+31 20 123 4567" },
  geneva: { firstName: "Léa", lastName: "Rochat", address1: "Rue du Rhône 65", city: "Genève", zip: "1204", countryCode: "CH", phone: "+41 22 123 45 67" },
  zurich: { firstName: "Reto", lastName: "Brunner", company: "Teehaus Brunner AG", address1: "Bahnhofstrasse 10", city: "Zürich", zip: "8001", countryCode: "CH", phone: null },
  london: { firstName: "Oliver", lastName: "Smith", address1: "221B Baker Street", city: "London", zip: "NW1 6XE", countryCode: "GB", phone: "+44 20 7946 0000" },
  edinburgh: { firstName: "Siobhán", lastName: "O'Connor", address1: "14 Royal Mile", address2: "Flat 2F1", city: "Edinburgh", zip: "EH1 1RE", countryCode: "GB", phone: null },
  newYork: { firstName: "Emily", lastName: "Johnson", address1: "350 Fifth Avenue", address2: "Suite 4200", city: "New York", zip: "10118", province: "New York", provinceCode: "NY", countryCode: "US", phone: "+1 212-555-0100" },
  sanFrancisco: { firstName: "Wei", lastName: "Zhang", company: "Zhang Tea Importers LLC", address1: "1 Market Street", city: "San Francisco", zip: "94105", province: "California", provinceCode: "CA", countryCode: "US", phone: "+1 415-555-0199" },
  montreal: { firstName: "Geneviève", lastName: "Tremblay", address1: "1234 rue Saint-Denis", city: "Montréal", zip: "H2X 3J6", province: "Quebec", provinceCode: "QC", countryCode: "CA", phone: "+1 514-555-0123" },
  toronto: { firstName: "Liam", lastName: "MacDonald", address1: "100 Queen Street West", city: "Toronto", zip: "M5H 2N2", province: "Ontario", provinceCode: "ON", countryCode: "CA", phone: null },
  oslo: { firstName: "Øystein", lastName: "Ødegård", address1: "Karl Johans gate 22", city: "Oslo", zip: "0159", countryCode: "NO", phone: "+47 22 00 00 00" },
  tokyo: { firstName: "太郎", lastName: "山田", address1: "千代田区丸の内1-1-1", address2: "パレスビル5階", city: "東京都", zip: "100-0005", province: "Tōkyō", provinceCode: "JP-13", countryCode: "JP", phone: "+81 3-1234-5678" },
  reunion: { firstName: "Kévin", lastName: "Hoarau", address1: "8 rue Juliette Dodu", city: "Saint-Denis", zip: "97400", countryCode: "RE", phone: "+262 692 00 00 00" },
  guadeloupe: { firstName: "Maëlle", lastName: "Bélair", address1: "Lotissement Les Flamboyants, 27 rue des Hibiscus", city: "Pointe-à-Pitre", zip: "97110", countryCode: "GP", phone: "+590 690 00 00 00" },
};

const CURRENCY: Record<string, { code: string; rate: number }> = {
  US: { code: "USD", rate: 1.08 },
  GB: { code: "GBP", rate: 0.86 },
  CH: { code: "CHF", rate: 0.94 },
  CA: { code: "CAD", rate: 1.49 },
};

function shippingFor(country: string, subtotal: number) {
  if (country === "FR") return subtotal >= 80 ? { title: "Livraison offerte", code: "free_fr", price: "0.00" } : { title: "Colissimo à domicile", code: "colissimo_home", price: "4.95" };
  if (EU.has(country)) return { title: "Livraison Europe suivie", code: "europe_tracked", price: "9.90" };
  return { title: "International suivi", code: "world_tracked", price: "19.90" };
}

interface Scenario {
  at: string;
  lines: { variant: number | null; quantity: number; title?: string; price?: string; unitDiscount?: string; orderDiscount?: string; removedQuantity?: number }[];
  fulfilled?: "all" | "partial" | "cancelled-fulfillment";
  cancelled?: boolean;
  closed?: boolean;
  noEmail?: boolean;
  noShippingAddress?: boolean;
  test?: boolean;
  note?: string;
  tags?: string[];
}

const scenarios: Record<string, Scenario> = {};
const explicit: [string, Scenario][] = [
  ["paris", { at: "fulfilled", lines: [{ variant: V.petitPrince, quantity: 1 }, { variant: V.sencha, quantity: 2 }], fulfilled: "all", closed: true }],
  ["lyon", { at: "partial", lines: [{ variant: V.atlas, quantity: 2 }, { variant: V.bol, quantity: 4 }, { variant: V.tasse, quantity: 4 }], fulfilled: "partial", tags: ["B2B"] }],
  ["berlin", { at: "cancelled", lines: [{ variant: V.theiere, quantity: 1 }], cancelled: true }],
  ["paris", { at: "digital only", lines: [{ variant: V.epub, quantity: 1 }], noShippingAddress: true }],
  ["marseille", { at: "gift card + physical", lines: [{ variant: V.giftCard50, quantity: 1 }, { variant: V.darjeeling, quantity: 1 }] }],
  ["lille", { at: "gift card only", lines: [{ variant: V.giftCard25, quantity: 2 }], noShippingAddress: false }],
  ["nice", { at: "zero weight + long lines", lines: [{ variant: V.tote, quantity: 3 }, { variant: V.verveine, quantity: 2 }] }],
  ["geneva", { at: "missing HS code to CH", lines: [{ variant: V.verveine, quantity: 5 }, { variant: V.sencha, quantity: 1 }] }],
  ["newYork", { at: "missing origin to US", lines: [{ variant: V.theiere, quantity: 1 }, { variant: V.tasse, quantity: 2 }] }],
  ["london", { at: "GBP", lines: [{ variant: V.pull, quantity: 1 }, { variant: V.carnet, quantity: 1 }] }],
  ["tokyo", { at: "JP non-Latin", lines: [{ variant: V.darjeeling, quantity: 2 }, { variant: V.petitPrince, quantity: 1 }] }],
  ["reunion", { at: "Réunion", lines: [{ variant: V.tshirtM, quantity: 2 }, { variant: V.sencha, quantity: 1 }] }],
  ["guadeloupe", { at: "Guadeloupe", lines: [{ variant: V.atlas, quantity: 1 }] }],
  ["reunionAsFr", { at: "Réunion recorded as FR", lines: [{ variant: V.bol, quantity: 2 }] }],
  ["canarias", { at: "Canary Islands", lines: [{ variant: V.darjeeling, quantity: 1 }, { variant: V.tasse, quantity: 1 }] }],
  ["munich", { at: "discounts + edited order", lines: [{ variant: V.pull, quantity: 2, unitDiscount: "10.00", removedQuantity: 1 }, { variant: V.tshirtL, quantity: 3, orderDiscount: "9.00" }] }],
  ["amsterdam", { at: "many lines", lines: [{ variant: V.sencha, quantity: 1 }, { variant: V.darjeeling, quantity: 1 }, { variant: V.verveine, quantity: 1 }, { variant: V.bol, quantity: 2 }, { variant: V.tasse, quantity: 2 }, { variant: V.carnet, quantity: 1 }] }],
  ["zurich", { at: "CHF business", lines: [{ variant: V.darjeeling, quantity: 10 }], tags: ["wholesale"] }],
  ["sanFrancisco", { at: "USD + custom item", lines: [{ variant: null, title: "Emballage cadeau premium", price: "6.00", quantity: 1 }, { variant: V.theiere, quantity: 2 }] }],
  ["montreal", { at: "CAD, refulfil after cancelled fulfillment", lines: [{ variant: V.atlas, quantity: 1 }, { variant: V.carnet, quantity: 2 }], fulfilled: "cancelled-fulfillment" }],
  ["oslo", { at: "NO", lines: [{ variant: V.pull, quantity: 1 }] }],
  ["ajaccio", { at: "Corsica", lines: [{ variant: V.sencha, quantity: 3 }] }],
  ["marseille", { at: "no email", lines: [{ variant: V.tshirtS, quantity: 1 }], noEmail: true }],
  ["rome", { at: "fulfilled IT", lines: [{ variant: V.tasse, quantity: 6 }], fulfilled: "all" }],
  ["brussels", { at: "ticket + printed gift card", lines: [{ variant: V.atelier, quantity: 2 }, { variant: V.giftCardPrinted, quantity: 1 }] }],
  ["madrid", { at: "test order", lines: [{ variant: V.petitPrince, quantity: 2 }], test: true, note: "Commande de test créée depuis l'admin" }],
];

const cycleAddresses = ["paris", "lyon", "berlin", "brussels", "madrid", "rome", "amsterdam", "geneva", "london", "newYork", "toronto", "oslo", "edinburgh", "paris", "nice", "lille"];
const physical = [V.petitPrince, V.atlas, V.carnet, V.sencha, V.darjeeling, V.verveine, V.bol, V.theiere, V.tasse, V.tshirtS, V.tshirtM, V.tshirtL, V.pull, V.tote];
/** The second location (a warehouse in Lyon) and the demo orders it ships, alone or with the Paris workshop. */
export const LYON_LOCATION_ID = 71000002;
const LYON_ONLY = new Set([1012, 1057, 1061]);
export const SPLIT_PARIS_LYON = new Set([1044, 1062]);

/** The default seed's orders: what `npm run demo` shows. */
export const DEFAULT_ORDER_COUNT = 64;

/**
 * The seed with `orderCount` orders (at least the hand-written scenarios). The default count gives default.json;
 * larger counts (the fault campaign, `npm run chaos`) add generated orders after the same first ones.
 */
export function generateSeed(orderCount: number = DEFAULT_ORDER_COUNT): Seed {
  random = prng(20261001);
  const generated: [string, Scenario][] = [];
  for (let i = 0; generated.length + explicit.length < orderCount; i++) {
    const count = 1 + Math.floor(random() * 3);
    const lines = new Map<number, number>();
    for (let l = 0; l < count; l++) {
      const variant = pick(physical);
      lines.set(variant, (lines.get(variant) ?? 0) + 1 + Math.floor(random() * 2));
    }
    const fulfilled = i % 9 === 4 ? "all" : i % 11 === 7 ? "partial" : undefined;
    generated.push([cycleAddresses[i % cycleAddresses.length]!, { at: "", lines: [...lines].map(([variant, quantity]) => ({ variant, quantity })), fulfilled, cancelled: i === 17 }]);
  }

  // Interleave: explicit scenarios first in time order is less realistic; spread them through the list.
  const all: [string, Scenario][] = [];
  const total = explicit.length + generated.length;
  let e = 0;
  let g = 0;
  for (let i = 0; i < total; i++) {
    if (e < explicit.length && (i % 2 === 0 || g >= generated.length)) all.push(explicit[e++]!);
    else all.push(generated[g++]!);
  }
  void scenarios;

  const start = Date.UTC(2026, 9, 1, 7, 30, 0); // 2026-10-01T07:30:00Z
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const cents = (decimal: string) => Math.round(Number(decimal) * 100);
  const decimal = (value: number) => (value / 100).toFixed(2);

  let lineId = 13_000_000_001;
  const orders = all.map(([addressKey, scenario], index) => {
    const number = 1001 + index;
    const createdMs = start + index * 17 * 3600_000 + Math.floor(random() * 3600_000);
    const address = ADDRESSES[addressKey]!;
    const country = address.countryCode;
    const currency = CURRENCY[country];
    const lineItems = scenario.lines.map((line) => {
      const rate = EU.has(country) && addressKey !== "canarias" && addressKey !== "reunionAsFr" ? (line.variant !== null && BOOKS.has(line.variant) ? 0.055 : 0.2) : 0;
      return {
        id: lineId++,
        variantId: line.variant,
        ...(line.title ? { title: line.title } : {}),
        ...(line.price ? { price: line.price } : {}),
        quantity: line.quantity,
        ...(line.removedQuantity ? { removedQuantity: line.removedQuantity } : {}),
        ...(line.unitDiscount ? { unitDiscount: line.unitDiscount } : {}),
        ...(line.orderDiscount ? { orderDiscount: line.orderDiscount } : {}),
        taxRate: rate,
      };
    });
    const subtotal = scenario.lines.reduce((sum, line) => sum + cents(line.price ?? PRICES.get(line.variant ?? 0) ?? "0") * line.quantity, 0);
    const needsShipping = scenario.lines.some((line) => line.variant === null || ![V.epub, V.giftCard25, V.giftCard50, V.atelier].includes(line.variant as never));
    const email = scenario.noEmail
      ? null
      : `${(address.firstName ?? "client").normalize("NFD").replace(/[^a-zA-Z]/g, "").toLowerCase() || "client"}.${number}@example.com`;
    const createdAt = iso(createdMs);
    const fulfillAt = iso(createdMs + 26 * 3600_000);
    const fulfillments: NonNullable<Seed["shops"][number]["orders"]>[number]["fulfillments"] = [];
    if (scenario.fulfilled === "all") {
      fulfillments.push({ createdAt: fulfillAt, trackingCompany: "Colissimo", trackingNumber: `6A${String(10_000_000_000 + number * 7919).slice(0, 11)}`, trackingUrl: `https://www.laposte.fr/outils/suivre-vos-envois?code=6A${number}` });
    } else if (scenario.fulfilled === "partial") {
      const first = lineItems[0]!;
      fulfillments.push({ createdAt: fulfillAt, trackingCompany: "Colissimo", trackingNumber: `6A${String(20_000_000_000 + number * 104729).slice(0, 11)}`, trackingUrl: null, lineItems: [{ lineItemId: first.id, quantity: Math.max(1, Math.floor(first.quantity / 2)) }] });
    } else if (scenario.fulfilled === "cancelled-fulfillment") {
      fulfillments.push({ createdAt: fulfillAt, status: "CANCELLED", trackingCompany: "Colissimo", trackingNumber: "6A99999999999", trackingUrl: null });
    }
    return {
      id: 7_100_000_000 + number,
      number,
      createdAt,
      email,
      phone: address.phone,
      customer: { id: 8_200_000_000 + number, firstName: address.firstName, lastName: address.lastName, email, phone: address.phone },
      ...(currency ? { presentmentCurrencyCode: currency.code, exchangeRate: currency.rate } : {}),
      shippingAddress: scenario.noShippingAddress || !needsShipping ? null : address,
      billingAddress: address,
      shippingLine: needsShipping ? shippingFor(country, subtotal) : null,
      lineItems,
      fulfillments,
      ...(scenario.cancelled ? { cancelledAt: iso(createdMs + 5 * 3600_000), cancelReason: "CUSTOMER" as const } : {}),
      ...(scenario.closed ? { closedAt: iso(createdMs + 30 * 3600_000) } : {}),
      ...(scenario.test ? { test: true } : {}),
      ...(scenario.note ? { note: scenario.note } : {}),
      ...(scenario.tags ? { tags: scenario.tags } : {}),
      financialStatus: scenario.cancelled ? ("REFUNDED" as const) : ("PAID" as const),
    };
  });
  void decimal;
  // The Lyon warehouse: a few orders ship from it alone, and two are split (their last line ships from Lyon, the rest
  // from Paris: two fulfillment orders at two locations). Chosen among generated orders no journey names.
  for (const order of orders) {
    const lines = order.lineItems as (typeof order.lineItems[number] & { locationId?: number })[];
    if (LYON_ONLY.has(order.number)) lines.forEach((line) => (line.locationId = LYON_LOCATION_ID));
    if (SPLIT_PARIS_LYON.has(order.number)) lines[lines.length - 1]!.locationId = LYON_LOCATION_ID;
  }

  const seed: Seed = {
    $comment: "Generated by emulators/shopify-admin/seed/generate.ts; edit the script, not this file.",
    shops: [
      {
        domain: "etiquette-demo.myshopify.com",
        accessToken: "shpat_etiquette_demo",
        appId: "310000000001",
        // The demo's shop is a development store, so the demo fulfils its test labels (decision 0170).
        developmentStore: true,
        name: "Maison Étiquette",
        email: "boutique@maison-etiquette.example",
        currencyCode: "EUR",
        ianaTimezone: "Europe/Paris",
        taxesIncluded: true,
        weightUnit: "KILOGRAMS",
        createdAt: "2025-03-14T09:00:00Z",
        address: { firstName: null, lastName: null, company: "Maison Étiquette SAS", address1: "24 rue du Faubourg Saint-Antoine", address2: "Cour de l'Étoile d'Or", city: "Paris", zip: "75012", countryCode: "FR", phone: "+33 1 43 00 00 00" },
        location: {
          id: 71000001,
          name: "Atelier Paris 12e",
          address: { firstName: null, lastName: null, company: "Maison Étiquette SAS", address1: "24 rue du Faubourg Saint-Antoine", address2: "Cour de l'Étoile d'Or", city: "Paris", zip: "75012", countryCode: "FR", phone: "+33 1 43 00 00 00" },
        },
        locations: [
          {
            id: LYON_LOCATION_ID,
            name: "Entrepôt Lyon",
            address: { firstName: null, lastName: null, company: "Maison Étiquette SAS", address1: "15 rue de la Villette", address2: "Quai 4", city: "Lyon", zip: "69003", countryCode: "FR", phone: "+33 4 72 00 00 00" },
          },
        ],
        products,
        orders,
      },
    ],
  };

  parseSeed(seed, "generated seed");
  return seed;
}

// Run as a script: write default.json. Imported (the fault campaign): nothing is written.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const seed = generateSeed();
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "default.json");
  fs.writeFileSync(out, JSON.stringify(seed, null, 2) + "\n");
  console.log(`wrote ${out}: ${seed.shops[0]!.orders?.length ?? 0} orders, ${products.length} products`);
}
