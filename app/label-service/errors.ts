/**
 * The one error type of the label-service client, secret redaction, and lenient extraction of the service's error
 * messages (probably `{"error": "..."}` or `{"errors": {field: [msgs]}}`, in French).
 */

export type LabelServiceErrorKind = "auth" | "rejected" | "unknown_outcome" | "rate_limited" | "network" | "protocol";

export type LabelServiceOperation = "authenticate" | "generate_label" | "list_labels" | "carrier_services";

export interface LabelServiceErrorInit {
  kind: LabelServiceErrorKind;
  operation: LabelServiceOperation;
  /** English, merchant-readable. */
  message: string;
  /** French, merchant-readable. */
  messageFr: string;
  status?: number;
  /** Raw response body, credentials already redacted. */
  body?: string;
  /** The readable text extracted from the service's body, when there is one. */
  serviceMessage?: string;
  /** Per-field messages from the service (`errors: {field: [msgs]}`) or from local validation. */
  fieldErrors?: Record<string, string[]>;
  /** For rate_limited: how long the service asked to wait. */
  retryAfterMs?: number;
  /** For network/unknown_outcome: the low-level code (ECONNREFUSED, TimeoutError...). */
  code?: string;
  cause?: unknown;
}

export class LabelServiceError extends Error {
  override readonly name = "LabelServiceError";
  readonly kind: LabelServiceErrorKind;
  readonly operation: LabelServiceOperation;
  readonly messageFr: string;
  readonly status: number | undefined;
  /** Same as `status`; the name the purchase layer reads. */
  readonly httpStatus: number | undefined;
  readonly body: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;

  constructor(init: LabelServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.operation = init.operation;
    this.messageFr = init.messageFr;
    this.status = init.status;
    this.httpStatus = init.status;
    this.body = init.body;
    this.serviceMessage = init.serviceMessage;
    this.fieldErrors = init.fieldErrors;
    this.retryAfterMs = init.retryAfterMs;
    this.code = init.code;
  }

  /** Nothing can have been charged: the request was refused, never sent, or never processed. */
  get nothingCharged(): boolean {
    return this.kind !== "unknown_outcome" && !(this.kind === "protocol" && this.operation === "generate_label");
  }

  /** A plain object for logs and JSON columns (no cause, no stack). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      operation: this.operation,
      message: this.message,
      messageFr: this.messageFr,
      status: this.status,
      body: this.body,
      serviceMessage: this.serviceMessage,
      fieldErrors: this.fieldErrors,
      retryAfterMs: this.retryAfterMs,
      code: this.code,
    };
  }
}

const REDACTED = "[REDACTED]";
const SECRET_KEYS = /^(password|pass|passwd|auth_token|token|access_token|refresh_token|authorization|jwt|secret)$/i;
const MIN_SECRET_LENGTH = 4;

/**
 * Removes secrets from a text: the known secret values (password, current token), `Bearer ...` values,
 * JWT-looking strings, and the values of secret-named JSON keys.
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
    // The same secret JSON-escaped (a password with a quote or backslash appears escaped in a body).
    if (secret && secret.length >= MIN_SECRET_LENGTH) {
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret) out = out.split(escaped).join(REDACTED);
    }
  }
  out = out.replace(/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`);
  out = out.replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED);
  out = out.replace(
    /("(?:password|pass|passwd|auth_token|token|access_token|refresh_token|authorization|jwt|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
    `$1"${REDACTED}"`,
  );
  return out;
}

/** Deep copy of a value with secret-named keys and secret values replaced (for structured logs). */
export function redactValue(value: unknown, secrets: readonly (string | undefined)[] = []): unknown {
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = SECRET_KEYS.test(key) ? REDACTED : redactValue(item, secrets);
    }
    return out;
  }
  return value;
}

export interface ExtractedServiceMessage {
  /** One readable line, e.g. "recipient.zip: doit être rempli(e)". */
  text?: string;
  fieldErrors?: Record<string, string[]>;
}

const MAX_MESSAGE_LENGTH = 500;

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const parts = value.map(asText).filter((part): part is string => part !== undefined);
    return parts.length ? parts.join(", ") : undefined;
  }
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of ["message", "error", "detail", "description", "title"]) {
      const text = asText(record[key]);
      if (text) return text;
    }
  }
  return undefined;
}

function collectFieldErrors(value: unknown, prefix: string, into: Record<string, string[]>): void {
  if (value === null || value === undefined) return;
  if (typeof value === "string" || typeof value === "number") {
    (into[prefix || "base"] ??= []).push(String(value));
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item && typeof item === "object" && !Array.isArray(item)) {
        const text = asText(item);
        const field = (item as Record<string, unknown>).field;
        if (text) (into[typeof field === "string" ? field : prefix || "base"] ??= []).push(text);
      } else collectFieldErrors(item, prefix, into);
    }
    return;
  }
  if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) collectFieldErrors(item, prefix ? `${prefix}.${key}` : key, into);
  }
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

/**
 * Pulls a readable message out of an error body, whatever its shape: `{"error": "..."}`,
 * `{"errors": {"field": ["msg"]}}`, `{"errors": ["msg"]}`, `{"message": "..."}`, plain text or HTML.
 */
export function extractServiceMessage(body: string): ExtractedServiceMessage {
  const trimmed = body.trim();
  if (!trimmed) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    const text = trimmed.startsWith("<")
      ? trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()
      : trimmed.replace(/\s+/g, " ");
    return text ? { text: truncate(text) } : {};
  }
  if (typeof parsed === "string") return { text: truncate(parsed) };
  if (Array.isArray(parsed)) {
    const text = asText(parsed);
    return text ? { text: truncate(text) } : {};
  }
  if (!parsed || typeof parsed !== "object") return {};
  const record = parsed as Record<string, unknown>;
  const parts: string[] = [];
  let fieldErrors: Record<string, string[]> | undefined;
  if (record.errors !== undefined) {
    const collected: Record<string, string[]> = {};
    collectFieldErrors(record.errors, "", collected);
    if (Object.keys(collected).length) {
      fieldErrors = collected;
      for (const [field, messages] of Object.entries(collected)) {
        parts.push(field === "base" ? messages.join(", ") : `${field}: ${messages.join(", ")}`);
      }
    }
  }
  const head = asText(record.error) ?? asText(record.message) ?? asText(record.detail);
  if (head && !parts.includes(head)) parts.unshift(head);
  const text = parts.join("; ");
  return { ...(text ? { text: truncate(text) } : {}), ...(fieldErrors ? { fieldErrors } : {}) };
}
