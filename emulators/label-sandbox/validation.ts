/**
 * The sandbox's own check of a generate_label payload, following the documented rules. It plays the real service:
 * it trusts nothing from the client and answers in French, one message per field.
 */
import { CARRIER_SERVICES, KNOWN_CARRIERS, needsCustoms } from "./services";

export const SANDBOX_LABEL_FORMATS = [
  "PDF_A4_300dpi",
  "PDF_10x15_300dpi",
  "ZPL_10x15_203dpi",
  "ZPL_10x15_300dpi",
  "DPL_10x15_203dpi",
  "DPL_10x15_300dpi",
] as const;

/** Limits the sandbox enforces (documented; the real ones are not published). */
export const LIMITS = { maxWeightGrams: 30_000, maxSideCm: 150 } as const;

export type FieldErrors = Record<string, string[]>;

export interface ValidLabelRequest {
  weight: number;
  carrier: string;
  service: string;
  customReference: string;
  destination: string;
  labelType: (typeof SANDBOX_LABEL_FORMATS)[number];
  body: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** Standard, padded base64 (RFC 4648 section 4), non-empty. */
const isBase64 = (value: string) => value.length > 0 && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export function validateLabelRequest(input: unknown): { ok: true; value: ValidLabelRequest } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    (errors[field] ??= []).push(message);
  };
  if (!isObject(input)) return { ok: false, errors: { body: ["le corps de la requête doit être un objet JSON"] } };

  const required = (object: Json, field: string, path: string): string | undefined => {
    const value = text(object[field]);
    if (value === undefined || value.trim() === "") {
      add(path, "est obligatoire");
      return undefined;
    }
    return value;
  };
  const measure = (field: string, max: number, unit: string, mandatory: boolean): number | undefined => {
    const raw = input[field];
    if (raw === undefined || raw === null || raw === "") {
      if (mandatory) add(field, "est obligatoire pour ce transporteur");
      return undefined;
    }
    if (typeof raw !== "string") {
      add(field, "doit être une chaîne de caractères numérique");
      return undefined;
    }
    if (!/^[0-9]+$/.test(raw)) {
      add(field, `doit être un nombre entier en ${unit}, sans unité ni décimale`);
      return undefined;
    }
    const value = Number(raw);
    if (value <= 0) add(field, "doit être supérieur à zéro");
    else if (value > max) add(field, `ne doit pas dépasser ${max} ${unit}`);
    return value;
  };
  const amount = (value: unknown, path: string) => {
    if (typeof value !== "string" || !/^[0-9]+,[0-9]{2}$/.test(value)) {
      add(path, "doit être un montant avec une virgule et deux décimales, par exemple 59,90");
    }
  };

  const carrier = required(input, "carrier_name", "carrier_name");
  const service = required(input, "carrier_service_name", "carrier_service_name");
  const customReference = required(input, "custom_reference", "custom_reference");
  const isDhl = carrier === "Dhl";
  const weight = measure("weight", LIMITS.maxWeightGrams, "grammes", true);
  for (const side of ["width", "height", "length"]) measure(side, LIMITS.maxSideCm, "centimètres", isDhl);
  if (isDhl && !text(input.description)?.trim()) add("description", "est obligatoire pour Dhl (de préférence en anglais)");
  if (carrier && !KNOWN_CARRIERS.includes(carrier)) {
    add("carrier_name", `transporteur inconnu « ${carrier} » (transporteurs acceptés : ${KNOWN_CARRIERS.join(", ")})`);
  }

  let labelType: ValidLabelRequest["labelType"] | undefined;
  let origin: { country: string; zip: string } | undefined;
  const sender = input.sender;
  if (!isObject(sender)) {
    add("sender", "est obligatoire");
  } else {
    for (const field of ["lastname", "address_line1", "country", "city", "zip", "phone1", "email"]) required(sender, field, `sender.${field}`);
    const phone = text(sender.phone1);
    if (phone && !/^\+[1-9][0-9]{7,14}$/.test(phone)) add("sender.phone1", "doit être au format international, par exemple +33612345678");
    const country = text(sender.country);
    if (country && !/^[A-Z]{2}$/.test(country)) add("sender.country", "doit être un code pays à deux lettres (ISO 3166-1)");
    else if (country) origin = { country, zip: text(sender.zip) ?? "" };
    const type = text(sender.labelType);
    if (!type) add("sender.labelType", "est obligatoire");
    else if (!(SANDBOX_LABEL_FORMATS as readonly string[]).includes(type)) {
      add("sender.labelType", `format inconnu « ${type} » (formats acceptés : ${SANDBOX_LABEL_FORMATS.join(", ")})`);
    } else labelType = type as ValidLabelRequest["labelType"];
  }

  let destination: string | undefined;
  let destinationZip = "";
  const recipient = input.recipient;
  if (!isObject(recipient)) {
    add("recipient", "est obligatoire");
  } else {
    for (const field of ["lastname", "address_line1", "country", "city", "zip", "email"]) required(recipient, field, `recipient.${field}`);
    const country = text(recipient.country);
    if (country && !/^[A-Z]{2}$/.test(country)) add("recipient.country", "doit être un code pays à deux lettres (ISO 3166-1)");
    else destination = country;
    destinationZip = text(recipient.zip) ?? "";
    const phone = text(recipient.phone1);
    if (phone !== undefined && phone !== "" && !/^\+[1-9][0-9]{7,14}$/.test(phone)) {
      add("recipient.phone1", "doit être au format international, par exemple +41791234567");
    }
  }

  if (carrier && service && destination && KNOWN_CARRIERS.includes(carrier)) {
    const entry = CARRIER_SERVICES.find((candidate) => candidate.carrier_name === carrier && candidate.name === service);
    if (!entry) add("carrier_service_name", `service « ${service} » inconnu pour ${carrier}`);
    else if (!entry.accepts(destination)) add("carrier_service_name", `le service « ${service} » de ${carrier} n'est pas disponible vers ${destination}`);
  }

  const cn23 = input.cn23_data;
  const customs = destination ? needsCustoms(destination, destinationZip, origin) : false;
  if (cn23 === undefined || cn23 === null) {
    if (customs) add("cn23_data", `est obligatoire pour un envoi vers ${destination} (hors territoire douanier de l'UE)`);
  } else if (!isObject(cn23)) {
    add("cn23_data", "doit être un objet");
  } else {
    const category = text(cn23.category);
    if (!category || !/^[1-6]$/.test(category)) add("cn23_data.category", "doit être un chiffre de 1 à 6 (3 = vente de marchandises)");
    amount(cn23.shipping_price, "cn23_data.shipping_price");
    const products = cn23.products;
    if (!Array.isArray(products) || products.length === 0) {
      add("cn23_data.products", "doit contenir au moins un article");
    } else {
      products.forEach((product, index) => {
        const path = `cn23_data.products[${index}]`;
        if (!isObject(product)) {
          add(path, "doit être un objet");
          return;
        }
        amount(product.unit_price, `${path}.unit_price`);
        if (!Number.isInteger(product.quantity) || (product.quantity as number) <= 0) add(`${path}.quantity`, "doit être un entier positif");
        if (!text(product.description)?.trim()) add(`${path}.description`, "est obligatoire");
        if (typeof product.weight !== "string" || !/^[0-9]+$/.test(product.weight)) add(`${path}.weight`, "doit être un poids entier en grammes");
        const origin = text(product.country_code);
        if (!origin) {
          if (customs) add(`${path}.country_code`, "le pays d'origine est obligatoire pour la douane");
        } else if (!/^[A-Z]{2}$/.test(origin)) add(`${path}.country_code`, "doit être un code pays à deux lettres");
        if (!/^[A-Z]{3}$/.test(text(product.currency_code) ?? "")) add(`${path}.currency_code`, "doit être un code devise à trois lettres, par exemple EUR");
      });
    }
  }

  // Optional fields whose real names did not render in the public documentation: the client's names (NOTES).
  const insured = input.insured_value;
  if (insured !== undefined && insured !== null && (typeof insured !== "number" || !Number.isInteger(insured) || insured < 0)) {
    add("insured_value", "doit être un montant entier en centimes, positif ou nul");
  }
  const invoice = input.invoice_base64;
  if (invoice !== undefined && invoice !== null && (typeof invoice !== "string" || !isBase64(invoice))) {
    add("invoice_base64", "doit être le fichier de la facture encodé en base64 (sans préfixe data:)");
  }

  if (Object.keys(errors).length > 0 || weight === undefined || !carrier || !service || !customReference || !destination || !labelType) {
    return { ok: false, errors };
  }
  return { ok: true, value: { weight, carrier, service, customReference, destination, labelType, body: input } };
}
