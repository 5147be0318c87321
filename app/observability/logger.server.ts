/**
 * The app's one logger (pino): one JSON object per line with `level` (a name), `time` (ISO 8601), `msg`, and the
 * ids that say what it is about: `requestId`, `shop`, `orderId`, `jobId`. Modules take a child logger
 * (`logger.child({ module: "jobs" })`, `forJob(...)`); the request id joins every line logged while a request is
 * handled (AsyncLocalStorage, set by the server's request logging).
 *
 * Never logged: passwords, tokens, secrets, authorisation headers, cookies, a recipient's name, address, phone or
 * e-mail. Those keys are redacted at the top level and up to two objects deep (redactFields, tested); messages must
 * not interpolate them.
 *
 * LOG_LEVEL: fatal | error | warn | info | debug | trace | silent (default info; silent under vitest unless set).
 * LOG_FORMAT=pretty prints one readable line per entry (development); JSON otherwise.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { z } from "zod";

export type { Logger } from "pino";

const levelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/** Keys whose values never reach a log line, at the top level and one or two objects deep. */
const SECRET_KEYS = [
  "password",
  "encryptedPassword",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "idToken",
  "id_token",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  "set-cookie",
  "secret",
  "apiSecret",
  "apiSecretKey",
  "apiKey",
  "encryptionKey",
  "sessionToken",
  "jwt",
] as const;

/** A recipient's (or customer's) personal data, as the Shopify and label-service payloads name it. */
const PERSONAL_KEYS = [
  "name",
  "firstName",
  "lastName",
  "first_name",
  "last_name",
  "company",
  "address",
  "address1",
  "address2",
  "street",
  "city",
  "zip",
  "postcode",
  "postal_code",
  "phone",
  "phone_number",
  "email",
  "shippingAddress",
  "shipping_address",
  "billingAddress",
  "billing_address",
  "recipient",
  "receiver",
  "customer",
  "sender",
] as const;

const KEYS = [...SECRET_KEYS, ...PERSONAL_KEYS];

export const REDACTED = "[redacted]";

/** The keys redacted, and how deep: at the top level and one or two objects deep (depth 0, 1 and 2). */
const REDACTED_KEYS: ReadonlySet<string> = new Set(KEYS);
const REDACT_DEPTH = 2;

/** A property's value, or a mark when reading it throws (a getter): a log line must never make its caller fail. */
function readSafely(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key];
  } catch {
    return "[unreadable]";
  }
}

/** Error properties pino's error serializer reads that are own but not enumerable (`stack` is a getter on Node 24). */
const ERROR_OWN_KEYS = ["message", "stack", "cause", "errors"] as const;

/**
 * A line's fields (or a child's bindings) with the value of every key of REDACTED_KEYS, at depth 0 to 2, replaced by
 * REDACTED (decision 0227). The caller's objects are never changed, and a line without such a key is returned as it
 * came. An object with something redacted inside is copied as plain values, each property read once: an Error keeps
 * its prototype (its type) and its message, stack, cause and errors; any other object becomes a plain object of its
 * own enumerable properties. An object with a toJSON is redacted as toJSON writes it. Byte arrays and dates are not
 * walked.
 */
export function redactFields<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value) || value instanceof Date) return value;
  const source = value as Record<string, unknown>;
  const isError = source instanceof Error;
  // An object that says how it is written (toJSON) is redacted as it would be written; left as it is when nothing in
  // that is redacted.
  const toJSON = isError ? undefined : readSafely(source, "toJSON");
  if (typeof toJSON === "function") {
    let written: unknown;
    try {
      written = (toJSON as () => unknown).call(source);
    } catch {
      return "[unreadable]" as T;
    }
    const redacted = redactFields(written, depth);
    return (redacted === written ? value : redacted) as T;
  }
  const values = new Map<string, unknown>();
  let changed = false;
  for (const key of Object.keys(source)) {
    if (REDACTED_KEYS.has(key)) {
      values.set(key, REDACTED);
      changed = true;
      continue;
    }
    const inner = readSafely(source, key);
    const next = depth < REDACT_DEPTH ? redactFields(inner, depth + 1) : inner;
    values.set(key, next);
    if (next !== inner) changed = true;
  }
  if (!changed) return value;
  if (Array.isArray(source)) {
    const copy: unknown[] = new Array(source.length);
    for (const [key, next] of values) copy[Number(key)] = next;
    return copy as T;
  }
  const prototype = Object.getPrototypeOf(source) as object | null;
  const copy = Object.create(isError ? prototype : prototype === null ? null : Object.prototype) as Record<string, unknown>;
  const define = (key: string, enumerable: boolean, fieldValue: unknown) => Object.defineProperty(copy, key, { value: fieldValue, enumerable, writable: true, configurable: true });
  if (isError) for (const key of ERROR_OWN_KEYS) if (Object.hasOwn(source, key) && !values.has(key)) define(key, false, readSafely(source, key));
  for (const [key, next] of values) define(key, true, next);
  return copy as T;
}

type RequestContext = { requestId: string };
const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `requestId` added to every line logged inside it (also across awaits). */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestContext.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export type LoggerSettings = { level?: string; format?: string; destination?: DestinationStream };

function settingsFromEnv(): LoggerSettings {
  const underTest = process.env.VITEST !== undefined;
  return { level: process.env.LOG_LEVEL ?? (underTest ? "silent" : "info"), format: process.env.LOG_FORMAT };
}

/** A logger with the app's format and redaction; `createLogger()` reads LOG_LEVEL and LOG_FORMAT. Tests pass a destination. */
export function createLogger(settings: LoggerSettings = settingsFromEnv()): Logger {
  const level = levelSchema.safeParse((settings.level ?? "info").toLowerCase());
  const options: LoggerOptions = {
    level: level.success ? level.data : "info",
    base: { service: "etiquette" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Redaction by key (decision 0227): pino's own `redact` took about 70 µs per line for these keys at three depths.
    formatters: { level: (label) => ({ level: label }), bindings: redactFields, log: redactFields },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  const logger = settings.destination
    ? pino(options, settings.destination)
    : settings.format === "pretty"
      ? pino(options, prettyDestination())
      : // Synchronous writes to stdout: pino's default writes asynchronously, and a line still being written when the
        // process exits is lost (the server's last shutdown line went missing that way in CI).
        pino(options, pino.destination({ dest: 1, sync: true }));
  // pino formats only the root's bindings; a child's are written into its lines as they are given. So every child
  // (made from this logger or from one of its children, which inherit this method) gets its bindings redacted first.
  // A child given a log formatter of its own gets it after the redaction; bindings set later are redacted too.
  const makeChild = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, childOptions) {
    const own = childOptions?.formatters?.log;
    const options = own ? { ...childOptions, formatters: { ...childOptions.formatters, log: (fields: object) => own(redactFields(fields)) } } : childOptions;
    return makeChild.call(this, redactFields(bindings), options);
  } as Logger["child"];
  const setBindings = logger.setBindings;
  logger.setBindings = function redactedSetBindings(this: Logger, bindings) {
    setBindings.call(this, redactFields(bindings));
  } as Logger["setBindings"];
  if (!level.success) logger.warn({ LOG_LEVEL: settings.level }, "LOG_LEVEL is not a pino level; using info");
  return logger;
}

/** Development output: `HH:MM:SS level msg key=value ...` on stdout (no extra package). */
function prettyDestination(): DestinationStream {
  return {
    write(line: string) {
      try {
        const { time, level, msg, service: _service, ...rest } = JSON.parse(line) as Record<string, unknown>;
        const fields = Object.entries(rest)
          .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
          .join(" ");
        process.stdout.write(`${String(time).slice(11, 19)} ${String(level).padEnd(5)} ${String(msg ?? "")} ${fields}\n`);
      } catch {
        process.stdout.write(line);
      }
    },
  };
}

declare global {
  // One logger per process, also across Vite dev-server reloads.
  var __etiquetteLogger: Logger | undefined;
}

/** The process's logger, created on first use (after the environment is final). */
export function rootLogger(): Logger {
  globalThis.__etiquetteLogger ??= createLogger();
  return globalThis.__etiquetteLogger;
}

/** Each root logger's child per module: pino builds a child's bindings (redaction included) when it is created. */
const moduleLoggers = new WeakMap<Logger, Map<string, Logger>>();

/**
 * A child logger for one area of the app: `moduleLogger("jobs").info(...)`. The same child for a module while the
 * root logger is the same: the hot paths ask for one on every Admin call and every label-service client, and new
 * pino children with the app's redaction cost a bulk job about 45 KB of allocation per label (decision 0224).
 */
export function moduleLogger(module: string): Logger {
  const root = rootLogger();
  let children = moduleLoggers.get(root);
  if (!children) moduleLoggers.set(root, (children = new Map()));
  let child = children.get(module);
  if (!child) children.set(module, (child = root.child({ module })));
  return child;
}

/** The ids a job's lines carry. */
export function forJob(logger: Logger, job: { id: string; name: string; shop: string }): Logger {
  return logger.child({ jobId: job.id, job: job.name, shop: job.shop });
}

/** An error as loggable fields: its class and message, never its cause chain's payloads. */
export function errorFields(error: unknown): { err: { type: string; message: string } } {
  if (error instanceof Error) return { err: { type: error.name, message: error.message } };
  return { err: { type: typeof error, message: String(error) } };
}
