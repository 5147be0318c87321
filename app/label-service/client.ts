/**
 * The label-service client: the I/O around the pure mapping in ./mapping.ts.
 *
 *  - tokens cached per `${shop}:${environment}:${fingerprint of base URL + e-mail + password}` (new credentials, new
 *    token), one authentication in flight per key, one re-authentication and one
 *    replay on a 401;
 *  - generate_label is never retried automatically (a retry can buy a second label); its outcome is returned as data:
 *    created | rejected (nothing charged) | unknown (reconcile with findLabelByReference);
 *  - the calls that are safe to repeat (authenticate, list, carrier services) honour Retry-After on a 429, bounded;
 *  - at most `maxConcurrency` calls in flight per account; every call has a timeout;
 *  - secrets (password, tokens) are redacted from errors and logs.
 */
import {
  labelServiceAccountSchema,
  labelServiceEnvironmentSchema,
  labelServiceOptionsSchema,
  type LabelServiceAccount,
  type LabelServiceEnvironment,
  type LabelServiceOptions,
  type LabelServiceOptionsInput,
} from "./config";
import { leanFetch } from "../http/lean-fetch.server";
import { moduleLogger } from "../observability/logger.server";
import { labelServiceCall } from "../observability/metrics.server";
import type { LabelResponse } from "./contract";
import { LabelServiceError, extractServiceMessage, redact, redactValue, type LabelServiceOperation } from "./errors";
import {
  authenticateRequest,
  carrierServicesRequest,
  countryCodeSchema,
  generateLabelRequest,
  listLabelsRequest,
  parseCarrierServices,
  parseLabelList,
  parseLabelResponse,
  parseRetryAfter,
  parseTokenResponse,
  tokenRenewAt,
  type CarrierService,
  type HttpRequestSpec,
  type ListEnvelope,
  type RemoteLabelItem,
} from "./mapping";
import {
  authError,
  freshTokenRefusedError,
  localValidationError,
  networkError,
  protocolError,
  rateLimitedError,
  rejectedError,
  unknownOutcomeError,
  type ErrorContext,
} from "./messages";
import { type Semaphore, accountSemaphore } from "./semaphore";
import { credentialFingerprint, defaultTokenCache, sharedAuthentication, tokenCacheKey, type TokenCache } from "./token-cache";

/** What one exchange sends: a valid init for the global fetch and for `leanFetch` alike. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}
/** What the client reads of an answer (a fetch Response has it). */
export type FetchAnswer = Pick<Response, "status" | "ok" | "headers" | "text">;
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchAnswer>;

/** Structured logger; every `data` object is redacted before it is passed on. */
export interface LabelServiceLogger {
  debug?(message: string, data?: Record<string, unknown>): void;
  info?(message: string, data?: Record<string, unknown>): void;
  warn?(message: string, data?: Record<string, unknown>): void;
  error?(message: string, data?: Record<string, unknown>): void;
}

/**
 * The app's JSON log (app/observability), used when the caller passes no logger. An error body is not passed on:
 * the service echoes the request's fields (a recipient's address) in its messages; the attempt keeps the error.
 */
function defaultLabelServiceLogger(): LabelServiceLogger {
  const log = moduleLogger("label-service");
  const fields = (data: Record<string, unknown> = {}) => {
    const { body, ...rest } = data;
    return typeof body === "string" ? { ...rest, bodyLength: body.length } : rest;
  };
  return {
    debug: (message, data) => log.debug(fields(data), message),
    info: (message, data) => log.info(fields(data), message),
    warn: (message, data) => log.warn(fields(data), message),
    error: (message, data) => log.error(fields(data), message),
  };
}

export interface CarrierServicesCacheEntry {
  expiresAt: number;
  services: CarrierService[];
}
/** Keyed by `${baseUrl}|${environment}|${country}`. */
export type CarrierServicesCache = Map<string, CarrierServicesCacheEntry>;
export const defaultCarrierServicesCache: CarrierServicesCache = new Map();

export interface CreateLabelServiceClientInput {
  shop: string;
  /** Staging by default. */
  environment?: LabelServiceEnvironment;
  account: LabelServiceAccount;
  options?: LabelServiceOptionsInput;
  /** Defaults to `leanFetch` (undici's request, decision 0213). */
  fetch?: FetchLike;
  /** Defaults to a process-wide in-memory cache, shared by every client. */
  tokenCache?: TokenCache;
  /** Defaults to a process-wide cache. */
  carrierServicesCache?: CarrierServicesCache;
  /** Defaults to one semaphore per account (base URL + e-mail) in this process. */
  semaphore?: Semaphore;
  logger?: LabelServiceLogger;
  /** Clock (epoch ms) and sleep, injectable for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type GenerateLabelResult =
  | { status: "created"; label: LabelResponse }
  | { status: "rejected"; error: LabelServiceError }
  | { status: "unknown"; error: LabelServiceError };

export interface LabelPage {
  page: number;
  labels: RemoteLabelItem[];
  /** Which envelope the service used. */
  envelope: ListEnvelope;
  /** Items without an id, ignored. */
  skipped: number;
}

/**
 * One lookup in the service's label list, read newest first. `absent` is a proof by reading: the list was read past
 * `since` (a label created before it was seen) or to its end, nothing matched, and (for a lookup by reference) every
 * label listed in that span carried a custom_reference. Anything short of that is `incomplete`, never "not bought".
 */
export type LabelLookup =
  | { status: "found"; label: RemoteLabelItem; pagesRead: number }
  | { status: "absent"; pagesRead: number; readTo: "since" | "end" }
  | { status: "incomplete"; pagesRead: number; reason: "page_cap" | "unreferenced" };

export interface LabelLookupParams {
  /** Stop once the list shows a label created before this time (the list is newest first). */
  since?: Date;
  /** Safety cap on pages (default: the `lookupMaxPages` option). */
  maxPages?: number;
}

export type ConnectionTestResult = { ok: true } | { ok: false; message: string; messageFr: string; error: LabelServiceError };

export interface LabelServiceClient {
  readonly shop: string;
  readonly environment: LabelServiceEnvironment;
  readonly baseUrl: string;
  /** Makes sure a valid token is cached (authenticates when needed; `force` ignores the cache). */
  authenticate(options?: { force?: boolean }): Promise<void>;
  /** Never throws for an outcome of the call; never retries. */
  generateLabel(request: unknown): Promise<GenerateLabelResult>;
  listLabels(params?: { page?: number }): Promise<LabelPage>;
  /** Every non-empty page from `startPage` (1) until an empty page. */
  labelPages(params?: { startPage?: number; maxPages?: number }): AsyncGenerator<LabelPage, void, undefined>;
  /** Every label of every page. */
  allLabels(params?: { startPage?: number; maxPages?: number }): AsyncGenerator<RemoteLabelItem, void, undefined>;
  /**
   * Scans pages from the first (newest) and stops at the first match; null when absent from the first `maxPages` pages
   * (`findMaxPages` by default). A null proves nothing: the purchase layer uses lookUpLabelByReference.
   */
  findLabelByReference(customReference: string, params?: { maxPages?: number }): Promise<RemoteLabelItem | null>;
  /** The same scan by the service's label id (for a merchant attaching a label found in the service's list). */
  findLabelById(id: string, params?: { maxPages?: number }): Promise<RemoteLabelItem | null>;
  /** Reads the list back to `since` (or its end), within the page cap, for the label with this custom_reference. */
  lookUpLabelByReference(customReference: string, params?: LabelLookupParams): Promise<LabelLookup>;
  /** The same by the service's label id. */
  lookUpLabelById(id: string, params?: LabelLookupParams): Promise<LabelLookup>;
  carrierServices(country: string): Promise<CarrierService[]>;
  /** The destination's services while this client's cache holds them (no call); undefined otherwise. */
  cachedCarrierServices(country: string): CarrierService[] | undefined;
  /** Fresh authentication with the saved credentials, for the Settings page. */
  testConnection(): Promise<ConnectionTestResult>;
  /**
   * Forgets the cached token of this shop, environment and credentials. Not needed after a credentials change (new
   * credentials have their own cache key); useful when a token is known to be revoked.
   */
  invalidateToken(): void;
}

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Low-level codes meaning the connection was never established: nothing was sent. */
const NOTHING_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

function errorCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 4) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === "string") return record.code;
  const fromCause = errorCode(record.cause, depth + 1);
  if (fromCause) return fromCause;
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = errorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const name = (error as { name?: unknown }).name;
  return name === "TimeoutError" || name === "AbortError";
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createLabelServiceClient(input: CreateLabelServiceClientInput): LabelServiceClient {
  const environment = labelServiceEnvironmentSchema.parse(input.environment ?? "staging");
  const account = labelServiceAccountSchema.parse(input.account);
  const options: LabelServiceOptions = labelServiceOptionsSchema.parse(input.options ?? {});
  const shop = input.shop;
  const fetchImpl: FetchLike = input.fetch ?? leanFetch;
  const tokenCache = input.tokenCache ?? defaultTokenCache;
  const carrierCache = input.carrierServicesCache ?? defaultCarrierServicesCache;
  const semaphore = input.semaphore ?? accountSemaphore(`${account.baseUrl}|${account.email}`, options.maxConcurrency);
  const now = input.now ?? Date.now;
  const sleep = input.sleep ?? realSleep;
  const logger = input.logger ?? defaultLabelServiceLogger();
  // The key changes with the credentials or the base URL, so a token is never used for another account.
  const key = tokenCacheKey(shop, environment, credentialFingerprint(account));
  const host = (() => {
    try {
      return new URL(account.baseUrl).host;
    } catch {
      return account.baseUrl;
    }
  })();

  /** Every token this client has seen, so that none can leak through a body echo. */
  const knownTokens: string[] = [];
  const secrets = () => [account.password, ...knownTokens];
  const clean = (text: string) => redact(text, secrets());

  function log(level: keyof LabelServiceLogger, message: string, data: Record<string, unknown>): void {
    const sink = logger?.[level];
    if (!sink) return;
    try {
      sink.call(logger, clean(message), redactValue({ shop, environment, ...data }, secrets()) as Record<string, unknown>);
    } catch {
      // A broken logger never breaks a label purchase.
    }
  }

  function ctx(operation: LabelServiceOperation, reference?: string): ErrorContext {
    return reference ? { operation, environment, reference } : { operation, environment };
  }

  /** One HTTP exchange. Throws LabelServiceError network (nothing sent) or unknown_outcome (sent, no answer). */
  async function exchange(
    operation: LabelServiceOperation,
    spec: HttpRequestSpec,
    timeoutMs: number,
    token: string | undefined,
    reference?: string,
  ): Promise<RawResponse> {
    const url = `${account.baseUrl}${spec.path}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (spec.body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const release = await semaphore.acquire();
    const started = now();
    try {
      const init: FetchInit = { method: spec.method, headers, signal: AbortSignal.timeout(timeoutMs) };
      if (spec.body !== undefined) init.body = JSON.stringify(spec.body);
      let response: FetchAnswer;
      try {
        response = await fetchImpl(url, init);
      } catch (error) {
        const code = errorCode(error);
        if (!isTimeout(error) && code && NOTHING_SENT_CODES.has(code)) {
          labelServiceCall(operation, "network_error", (now() - started) / 1000);
          log("warn", "label-service connection failed", { operation, method: spec.method, path: spec.path, code });
          throw networkError(ctx(operation, reference), host, code, error);
        }
        const reason = isTimeout(error)
          ? `no answer within ${Math.round(timeoutMs / 1000)} s`
          : `the connection was lost${code ? ` (${code})` : ""}`;
        labelServiceCall(operation, "no_answer", (now() - started) / 1000);
        log("warn", "label-service call without answer", { operation, method: spec.method, path: spec.path, reason });
        throw unknownOutcomeError(ctx(operation, reference), reason, { code: isTimeout(error) ? "TIMEOUT" : code, cause: error });
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        const reason = isTimeout(error)
          ? `the answer did not arrive in full within ${Math.round(timeoutMs / 1000)} s`
          : "the connection was lost while the answer was being read";
        labelServiceCall(operation, "no_answer", (now() - started) / 1000);
        log("warn", "label-service answer lost", { operation, status: response.status, reason });
        throw unknownOutcomeError(ctx(operation, reference), reason, {
          status: response.status,
          code: isTimeout(error) ? "TIMEOUT" : errorCode(error),
          cause: error,
        });
      }
      labelServiceCall(operation, `http_${Math.floor(response.status / 100)}xx`, (now() - started) / 1000);
      log(response.ok ? "info" : "warn", "label-service call", {
        operation,
        method: spec.method,
        path: spec.path,
        status: response.status,
        durationMs: now() - started,
        ...(response.ok ? {} : { body: text.slice(0, 2_000) }),
      });
      return { status: response.status, headers: response.headers, text };
    } finally {
      release();
    }
  }

  function retryAfterOf(response: RawResponse): number | undefined {
    return parseRetryAfter(response.headers.get("retry-after"), now());
  }

  /** Repeats a call that is safe to repeat while it answers 429, within the configured bounds. */
  async function withRateLimitRetries(
    operation: LabelServiceOperation,
    call: () => Promise<RawResponse>,
  ): Promise<RawResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const response = await call();
      if (response.status !== 429) return response;
      const asked = retryAfterOf(response);
      const wait = asked ?? options.defaultRetryAfterMs;
      if (attempt >= options.maxRateLimitRetries || wait > options.maxRetryAfterMs) {
        throw rateLimitedError(ctx(operation), asked, response.status, clean(response.text));
      }
      log("info", "label-service rate limited, waiting", { operation, waitMs: wait, attempt: attempt + 1 });
      await sleep(wait);
    }
  }

  async function authenticateNow(): Promise<string> {
    const context = ctx("authenticate");
    const response = await withRateLimitRetries("authenticate", () =>
      exchange("authenticate", authenticateRequest(account), options.defaultTimeoutMs, undefined),
    );
    const body = clean(response.text);
    if (response.status >= 200 && response.status < 300) {
      const json = tryJson(response.text);
      const token = json.ok ? parseTokenResponse(json.value) : undefined;
      if (!token) throw protocolError(context, "no auth_token in the answer to POST /authenticate", response.status, body);
      knownTokens.push(token);
      if (knownTokens.length > 20) knownTokens.shift();
      return token;
    }
    const detail = extractServiceMessage(body).text;
    if ([400, 401, 403, 422].includes(response.status)) throw authError(context, response.status, body, detail);
    if (response.status >= 500) {
      throw unknownOutcomeError(context, `HTTP ${response.status}${detail ? `: ${detail}` : ""}`, { status: response.status, body, serviceMessage: detail });
    }
    if (response.status >= 400) throw rejectedError(context, response.status, body, detail);
    throw protocolError(context, `unexpected HTTP ${response.status}`, response.status, body);
  }

  async function getToken(): Promise<string> {
    const cached = tokenCache.get(key);
    if (cached && cached.renewAt > now()) return cached.token;
    return sharedAuthentication(tokenCache, key, async () => {
      const token = await authenticateNow();
      tokenCache.set(key, { token, renewAt: tokenRenewAt(token, now(), options) });
      log("info", "label-service authenticated", {});
      return token;
    });
  }

  function dropToken(token: string): void {
    if (tokenCache.get(key)?.token === token) tokenCache.delete(key);
  }

  /** A call with a bearer token: on a 401, one re-authentication and one replay; a second 401 is an auth error. */
  async function authorized(
    operation: LabelServiceOperation,
    spec: HttpRequestSpec,
    timeoutMs: number,
    reference?: string,
  ): Promise<RawResponse> {
    const first = await getToken();
    const response = await exchange(operation, spec, timeoutMs, first, reference);
    if (response.status !== 401) return response;
    dropToken(first);
    log("info", "label-service token refused, authenticating again", { operation });
    const second = await getToken();
    const replay = await exchange(operation, spec, timeoutMs, second, reference);
    if (replay.status !== 401) return replay;
    dropToken(second);
    const body = clean(replay.text);
    // Authentication itself succeeded (getToken just got a token): not a matter of e-mail and password.
    throw freshTokenRefusedError(ctx(operation, reference), body, extractServiceMessage(body).text);
  }

  /** Errors for a non-2xx answer of a read call (401 and 429 are handled before). */
  function readFailure(operation: LabelServiceOperation, response: RawResponse): LabelServiceError {
    const body = clean(response.text);
    const extracted = extractServiceMessage(body);
    if (response.status >= 500) {
      return unknownOutcomeError(ctx(operation), `HTTP ${response.status}${extracted.text ? `: ${extracted.text}` : ""}`, {
        status: response.status,
        body,
        ...(extracted.text ? { serviceMessage: extracted.text } : {}),
      });
    }
    if (response.status >= 400) return rejectedError(ctx(operation), response.status, body, extracted.text, extracted.fieldErrors);
    return protocolError(ctx(operation), `unexpected HTTP ${response.status}`, response.status, body);
  }

  async function readJson(operation: LabelServiceOperation, spec: HttpRequestSpec): Promise<unknown> {
    const response = await withRateLimitRetries(operation, () => authorized(operation, spec, options.defaultTimeoutMs));
    if (response.status < 200 || response.status >= 300) throw readFailure(operation, response);
    const json = tryJson(response.text);
    if (!json.ok) throw protocolError(ctx(operation), "the answer is not JSON", response.status, clean(response.text.slice(0, 2_000)));
    return json.value;
  }

  async function listLabels(params: { page?: number } = {}): Promise<LabelPage> {
    const page = params.page ?? 1;
    if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a whole number >= 1, got ${page}`);
    const json = await readJson("list_labels", listLabelsRequest(page));
    const parsed = parseLabelList(json);
    if (!parsed.ok) throw protocolError(ctx("list_labels"), parsed.problem, 200, clean(JSON.stringify(json).slice(0, 2_000)));
    if (parsed.skipped > 0) log("warn", "label-service list items without id ignored", { page, skipped: parsed.skipped });
    return { page, labels: parsed.labels, envelope: parsed.envelope, skipped: parsed.skipped };
  }

  async function* labelPages(params: { startPage?: number; maxPages?: number } = {}): AsyncGenerator<LabelPage, void, undefined> {
    const start = params.startPage ?? 1;
    const maxPages = params.maxPages ?? options.iterateMaxPages;
    let previousIds: string | undefined;
    for (let page = start; page < start + maxPages; page += 1) {
      const result = await listLabels({ page });
      if (result.labels.length === 0) return;
      const ids = result.labels.map((label) => label.id).join(",");
      if (ids === previousIds) {
        throw protocolError(ctx("list_labels"), `page ${page} repeats page ${page - 1}: the service seems to ignore the page parameter`, 200, undefined);
      }
      previousIds = ids;
      yield result;
    }
    if (params.maxPages === undefined) {
      throw protocolError(ctx("list_labels"), `no empty page after ${maxPages} pages`, 200, undefined);
    }
  }

  async function* allLabels(params: { startPage?: number; maxPages?: number } = {}): AsyncGenerator<RemoteLabelItem, void, undefined> {
    for await (const page of labelPages(params)) yield* page.labels;
  }

  async function lookUp(
    matches: (label: RemoteLabelItem) => boolean,
    what: Record<string, string>,
    params: LabelLookupParams & { needsReference: boolean },
  ): Promise<LabelLookup> {
    const maxPages = params.maxPages ?? options.lookupMaxPages;
    const since = params.since?.getTime();
    let pagesRead = 0;
    let unreferenced = 0;
    for await (const page of labelPages({ maxPages })) {
      pagesRead += 1;
      const match = page.labels.find(matches);
      if (match) return { status: "found", label: match, pagesRead };
      let reachedSince = false;
      for (const label of page.labels) {
        const created = label.created_at ? Date.parse(label.created_at) : Number.NaN;
        if (since !== undefined && Number.isFinite(created) && created < since) reachedSince = true;
        else if (params.needsReference && !label.custom_reference) unreferenced += 1;
      }
      // Items without an id could be the label looked for: they leave the proof incomplete too.
      unreferenced += page.skipped;
      if (reachedSince) return settle("since");
    }
    // labelPages stops at an empty page (the end of the list) or after maxPages pages.
    if (pagesRead >= maxPages) {
      log("warn", "label-service lookup stopped by its page cap", { ...what, pagesRead, maxPages });
      return { status: "incomplete", pagesRead, reason: "page_cap" };
    }
    return settle("end");

    function settle(readTo: "since" | "end"): LabelLookup {
      log("info", "label-service label not found", { ...what, pagesRead, readTo, unreferenced });
      return unreferenced > 0 ? { status: "incomplete", pagesRead, reason: "unreferenced" } : { status: "absent", pagesRead, readTo };
    }
  }

  function lookUpLabelByReference(customReference: string, params: LabelLookupParams = {}): Promise<LabelLookup> {
    return lookUp((label) => label.custom_reference === customReference, { customReference }, { ...params, needsReference: true });
  }

  function lookUpLabelById(id: string, params: LabelLookupParams = {}): Promise<LabelLookup> {
    return lookUp((label) => label.id === id, { labelId: id }, { ...params, needsReference: false });
  }

  async function findLabelByReference(customReference: string, params: { maxPages?: number } = {}): Promise<RemoteLabelItem | null> {
    const found = await lookUpLabelByReference(customReference, { maxPages: params.maxPages ?? options.findMaxPages });
    return found.status === "found" ? found.label : null;
  }

  async function findLabelById(id: string, params: { maxPages?: number } = {}): Promise<RemoteLabelItem | null> {
    const found = await lookUpLabelById(id, { maxPages: params.maxPages ?? options.findMaxPages });
    return found.status === "found" ? found.label : null;
  }

  const carrierCacheKey = (code: string) => `${account.baseUrl}|${environment}|${code}`;

  function cachedCarrierServices(country: string): CarrierService[] | undefined {
    const cached = carrierCache.get(carrierCacheKey(country.trim().toUpperCase()));
    return cached && cached.expiresAt > now() ? cached.services : undefined;
  }

  async function carrierServices(country: string): Promise<CarrierService[]> {
    const code = countryCodeSchema.safeParse(country.trim().toUpperCase());
    if (!code.success) {
      throw localValidationError(ctx("carrier_services"), { country: [`"${country}": ${code.error.issues[0]?.message ?? "invalid"}`] });
    }
    const cacheKey = carrierCacheKey(code.data);
    const cached = cachedCarrierServices(code.data);
    if (cached) return cached;
    const json = await readJson("carrier_services", carrierServicesRequest(options.carrierServicesPath, code.data));
    const parsed = parseCarrierServices(json);
    if (!parsed.ok) throw protocolError(ctx("carrier_services"), parsed.problem, 200, clean(JSON.stringify(json).slice(0, 2_000)));
    carrierCache.set(cacheKey, { services: parsed.services, expiresAt: now() + options.carrierServicesTtlMs });
    return parsed.services;
  }

  async function generateLabel(request: unknown): Promise<GenerateLabelResult> {
    const maybeReference =
      request && typeof request === "object" ? (request as { custom_reference?: unknown }).custom_reference : undefined;
    const reference = typeof maybeReference === "string" ? maybeReference : undefined;
    const context = ctx("generate_label", reference);
    const check = generateLabelRequest(request);
    if (!check.ok) return { status: "rejected", error: localValidationError(context, check.fieldErrors) };

    let response: RawResponse;
    try {
      response = await authorized("generate_label", check.request, options.generateTimeoutMs, reference);
    } catch (error) {
      if (error instanceof LabelServiceError) {
        // Sent and unanswered: the caller must reconcile. Anything else (authentication trouble, connection refused)
        // happened before generate_label was processed: nothing was charged.
        if (error.kind === "unknown_outcome" && error.operation === "generate_label") return { status: "unknown", error };
        return { status: "rejected", error };
      }
      return {
        status: "unknown",
        error: unknownOutcomeError(context, `unexpected failure: ${clean(String(error))}`, { cause: error }),
      };
    }

    const body = clean(response.text);
    if (response.status >= 200 && response.status < 300) {
      const json = tryJson(response.text);
      const parsed = json.ok ? parseLabelResponse(json.value) : { ok: false as const, problem: "the answer is not JSON" };
      if (parsed.ok) {
        log("info", "label-service label created", { customReference: reference, id: parsed.label.id });
        return { status: "created", label: parsed.label };
      }
      return { status: "unknown", error: protocolError(context, parsed.problem, response.status, body) };
    }
    if (response.status === 429) {
      // Not retried: the caller (queue, merchant) decides when to try again; nothing was charged.
      return { status: "rejected", error: rateLimitedError(context, retryAfterOf(response), 429, body) };
    }
    const extracted = extractServiceMessage(body);
    if (response.status >= 400 && response.status < 500) {
      return { status: "rejected", error: rejectedError(context, response.status, body, extracted.text, extracted.fieldErrors) };
    }
    const reason = response.status >= 500 ? `HTTP ${response.status}${extracted.text ? `: ${extracted.text}` : ""}` : `unexpected HTTP ${response.status}`;
    return {
      status: "unknown",
      error: unknownOutcomeError(context, reason, { status: response.status, body, ...(extracted.text ? { serviceMessage: extracted.text } : {}) }),
    };
  }

  return {
    shop,
    environment,
    baseUrl: account.baseUrl,
    async authenticate(params: { force?: boolean } = {}) {
      if (params.force) tokenCache.delete(key);
      await getToken();
    },
    generateLabel,
    listLabels,
    labelPages,
    allLabels,
    findLabelByReference,
    findLabelById,
    lookUpLabelByReference,
    lookUpLabelById,
    carrierServices,
    cachedCarrierServices,
    async testConnection() {
      try {
        tokenCache.delete(key);
        await getToken();
        return { ok: true };
      } catch (error) {
        if (error instanceof LabelServiceError) return { ok: false, message: error.message, messageFr: error.messageFr, error };
        throw error;
      }
    },
    invalidateToken() {
      tokenCache.delete(key);
    },
  };
}
