/**
 * Pure request/response mapping for the label service: no I/O here, so every rule is unit-testable.
 */
import { z } from "zod";
import { labelRequestSchema, labelResponseSchema, type LabelRequest, type LabelResponse } from "./contract";

export interface HttpRequestSpec {
  method: "GET" | "POST";
  /** Path relative to the account's base URL, with its query string. */
  path: string;
  body?: unknown;
}

// ---------------------------------------------------------------- authenticate

export function authenticateRequest(credentials: { email: string; password: string }): HttpRequestSpec {
  return { method: "POST", path: "/authenticate", body: { email: credentials.email, password: credentials.password } };
}

const tokenResponseSchema = z.object({ auth_token: z.string().min(1) }).loose();

/** The bearer token from a successful authenticate response, or undefined when the body has no usable token. */
export function parseTokenResponse(json: unknown): string | undefined {
  const parsed = tokenResponseSchema.safeParse(json);
  return parsed.success ? parsed.data.auth_token : undefined;
}

/** The `exp` claim (seconds since epoch) of a JWT, when the token is a JWT that carries one. Not verified. */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    if (payload && typeof payload === "object") {
      const exp = (payload as Record<string, unknown>).exp;
      if (typeof exp === "number" && Number.isFinite(exp) && exp > 0) return exp;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * When to stop using a token: its JWT `exp` (or now + fallback lifetime) minus a refresh margin. The margin is capped
 * at a tenth of the remaining lifetime so that very short-lived tokens (tests, sandbox) are still reused.
 */
export function tokenRenewAt(
  token: string,
  nowMs: number,
  options: { tokenLifetimeSeconds: number; tokenRefreshMarginSeconds: number },
): number {
  const exp = jwtExpiry(token);
  const expiresAt = exp !== undefined ? exp * 1000 : nowMs + options.tokenLifetimeSeconds * 1000;
  const remaining = Math.max(0, expiresAt - nowMs);
  const margin = Math.min(options.tokenRefreshMarginSeconds * 1000, remaining / 10);
  return expiresAt - margin;
}

// ---------------------------------------------------------------- generate_label

export type RequestCheck = { ok: true; request: HttpRequestSpec; payload: LabelRequest } | { ok: false; fieldErrors: Record<string, string[]> };

/** Validates the label request with the wire contract and builds the HTTP request. */
export function generateLabelRequest(input: unknown): RequestCheck {
  const parsed = labelRequestSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const at = issue.path.map(String).join(".");
      if (issue.code === "unrecognized_keys") {
        // Named per key, so a misspelled optional field shows up under its own (wrong) name.
        for (const unknownKey of issue.keys) {
          (fieldErrors[at ? `${at}.${unknownKey}` : unknownKey] ??= []).push("unknown field: check its spelling (the service would not receive it)");
        }
        continue;
      }
      (fieldErrors[at || "request"] ??= []).push(issue.message);
    }
    return { ok: false, fieldErrors };
  }
  return { ok: true, payload: parsed.data, request: { method: "POST", path: "/labels/generate_label", body: parsed.data } };
}

export type ParsedLabelResponse = { ok: true; label: LabelResponse } | { ok: false; problem: string };

/** The five documented fields are required; any extra field is kept. */
export function parseLabelResponse(json: unknown): ParsedLabelResponse {
  const parsed = labelResponseSchema.safeParse(json);
  if (parsed.success) return { ok: true, label: parsed.data };
  return {
    ok: false,
    problem: parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "body"}: ${issue.message}`).join("; "),
  };
}

// ---------------------------------------------------------------- GET /labels

export function listLabelsRequest(page: number): HttpRequestSpec {
  return { method: "GET", path: `/labels?page=${encodeURIComponent(String(page))}` };
}

/** A label as listed by the service. Only `id` is required; unknown fields are kept. */
export const remoteLabelSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    reference: z.string().optional().catch(undefined),
    label_url: z.string().optional().catch(undefined),
    tracking_url: z.string().optional().catch(undefined),
    custom_reference: z.string().optional().catch(undefined),
    carrier_name: z.string().optional().catch(undefined),
    created_at: z.string().optional().catch(undefined),
  })
  .loose();
export type RemoteLabelItem = z.infer<typeof remoteLabelSchema>;

export type ListEnvelope = "array" | "labels" | "data";

export type ParsedLabelList =
  | { ok: true; envelope: ListEnvelope; labels: RemoteLabelItem[]; skipped: number }
  | { ok: false; problem: string };

/**
 * Accepts a bare array (the shape we assume, see docs/readme/label-client.md), `{labels: [...]}` or `{data: [...]}`.
 * Items without an id are skipped (counted), never fatal.
 */
export function parseLabelList(json: unknown): ParsedLabelList {
  let envelope: ListEnvelope;
  let items: unknown;
  if (Array.isArray(json)) {
    envelope = "array";
    items = json;
  } else if (json && typeof json === "object" && Array.isArray((json as Record<string, unknown>).labels)) {
    envelope = "labels";
    items = (json as Record<string, unknown>).labels;
  } else if (json && typeof json === "object" && Array.isArray((json as Record<string, unknown>).data)) {
    envelope = "data";
    items = (json as Record<string, unknown>).data;
  } else {
    return { ok: false, problem: "expected a JSON array of labels, or an object with a `labels` or `data` array" };
  }
  const labels: RemoteLabelItem[] = [];
  let skipped = 0;
  for (const item of items as unknown[]) {
    const parsed = remoteLabelSchema.safeParse(item);
    if (parsed.success) labels.push(parsed.data);
    else skipped += 1;
  }
  return { ok: true, envelope, labels, skipped };
}

// ---------------------------------------------------------------- carrier services

export const countryCodeSchema = z.string().regex(/^[A-Z]{2}$/, "expected an ISO 3166-1 alpha-2 code such as DE");

export function carrierServicesRequest(path: string, country: string): HttpRequestSpec {
  return { method: "GET", path: `${path}?country=${encodeURIComponent(country)}` };
}

export interface CarrierService {
  /** The value to send as carrier_service_name. */
  name: string;
  /** A human label, when the service gives one. */
  label?: string;
  /** The carrier offering it (`carrier_name` or `carrier`), when the record says so. */
  carrier?: string;
  raw: unknown;
}

const NAME_KEYS = ["name", "service_name", "carrier_service_name", "code", "service_code", "value", "id"] as const;
const LABEL_KEYS = ["label", "description", "title", "display_name", "displayName", "service_label"] as const;
const ENVELOPE_KEYS = ["services", "carrier_services", "data", "results", "items"] as const;

function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return value;
    if (typeof value === "number") return String(value);
  }
  return undefined;
}

export type ParsedCarrierServices = { ok: true; services: CarrierService[] } | { ok: false; problem: string };

/**
 * Accepts a bare array of strings, of objects with a name-like field (and optionally a carrier), or such an array inside an envelope
 * (`services`, `carrier_services`, `data`, `results`, `items`).
 */
export function parseCarrierServices(json: unknown): ParsedCarrierServices {
  let items: unknown = json;
  if (!Array.isArray(items) && items && typeof items === "object") {
    const record = items as Record<string, unknown>;
    const key = ENVELOPE_KEYS.find((candidate) => Array.isArray(record[candidate]));
    items = key ? record[key] : undefined;
  }
  if (!Array.isArray(items)) {
    return { ok: false, problem: "expected a JSON array of services, or an object with a `services` array" };
  }
  const services: CarrierService[] = [];
  for (const item of items as unknown[]) {
    if (typeof item === "string" && item.trim()) services.push({ name: item, raw: item });
    else if (item && typeof item === "object" && !Array.isArray(item)) {
      const record = item as Record<string, unknown>;
      const name = firstString(record, NAME_KEYS);
      if (!name) continue;
      const label = firstString(record, LABEL_KEYS);
      const carrier = firstString(record, ["carrier_name", "carrier"]);
      services.push({
        name,
        ...(label !== undefined && label !== name ? { label } : {}),
        ...(carrier !== undefined ? { carrier } : {}),
        raw: item,
      });
    }
  }
  return { ok: true, services };
}

// ---------------------------------------------------------------- pacing

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
