/**
 * `fetch` for the app's two hot JSON calls (a label purchase, an Admin GraphQL document), on undici's `request`:
 * the same HTTP engine as Node's global fetch, without the web streams and WHATWG objects around it (decision 0213).
 * On the bulk bench those wrappers were about a third of the app's CPU per label.
 *
 * It keeps what callers rely on from fetch:
 * - the promise settles when the status and headers arrive; the body is read at once (so an unread body never holds
 *   a connection) and `text()` / `json()` / `arrayBuffer()` give it, or reject if the connection broke mid-body;
 * - a failure before the answer rejects with `TypeError("fetch failed", { cause })`, one in the body with
 *   `TypeError("terminated", { cause })`, the cause carrying the code (ECONNREFUSED, UND_ERR_SOCKET, ...); an aborted
 *   signal rejects with the signal's reason (a timeout's `TimeoutError`), as fetch does;
 * - a string, bytes or URLSearchParams body, with fetch's default content type.
 * It does not follow redirects (neither service answers a JSON call with one: a 3xx is returned as it came) and does
 * not ask for compressed answers.
 */
import { STATUS_CODES } from "node:http";
import { Agent, request, type Dispatcher } from "undici";

/** The part of a fetch Response that the app and the Shopify library read. */
export interface LeanResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: false;
  readonly type: "basic";
  readonly bodyUsed: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type LeanInit = {
  method?: string;
  headers?: HeadersInit;
  body?: string | Uint8Array | URLSearchParams | null;
  signal?: AbortSignal | null;
};

/** One connection pool per origin, kept alive between calls (undici's defaults: the server's keep-alive hint wins). */
let dispatcher: Dispatcher | undefined;
/** Bodies are UTF-8, as fetch reads them (a leading byte-order mark dropped). */
const utf8 = new TextDecoder();
const pool = () => (dispatcher ??= new Agent({ connect: { timeout: 10_000 } }));

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries: Iterable<[string, string]> =
    headers instanceof Headers ? headers.entries() : Array.isArray(headers) ? (headers as [string, string][]) : Object.entries(headers);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : String(value);
  }
  return out;
}

/**
 * undici decodes header values as UTF-8; fetch keeps them as byte strings (one character per byte), and `Headers`
 * refuses characters above U+00FF. A value with anything beyond ASCII is turned back into fetch's byte string (the
 * same as fetch's for UTF-8 bytes; bytes that are not UTF-8 were already replaced by undici and cannot come back).
 */
function byteString(value: string): string {
  return /[\u0080-\uffff]/.test(value) ? Buffer.from(value, "utf8").toString("latin1") : value;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  // undici itself already gives content-disposition as a byte string when content-length is present: not twice.
  const asBytes = (name: string, value: string) => (name === "content-disposition" && "content-length" in raw ? value : byteString(value));
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(name, asBytes(name, one));
    else headers.append(name, asBytes(name, value));
  }
  return headers;
}

/**
 * undici hands an abort to a request only once its connection exists: a connection that hangs (a TLS handshake that
 * never ends) would hold the caller until the connect timeout. The caller gets the signal's reason at once instead;
 * undici then drops the request when the connection comes, before writing it.
 */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}

function reasonOf(signal: AbortSignal | null | undefined): unknown {
  return signal?.aborted ? signal.reason ?? new DOMException("This operation was aborted", "AbortError") : undefined;
}

export async function leanFetch(input: string | URL, init: LeanInit = {}): Promise<LeanResponse> {
  const url = typeof input === "string" ? input : input.href;
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  // fetch's defaults, which some gateways insist on.
  const headers: Record<string, string> = { accept: "*/*", "user-agent": "node", ...plainHeaders(init.headers) };
  let body: string | Uint8Array | undefined;
  if (typeof init.body === "string") {
    body = init.body;
    headers["content-type"] ??= "text/plain;charset=UTF-8";
  } else if (init.body instanceof URLSearchParams) {
    body = init.body.toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
  } else if (init.body instanceof Uint8Array) {
    body = init.body;
  } else if (init.body != null) {
    throw new TypeError("leanFetch: only string, bytes or URLSearchParams bodies");
  }

  let answer: Dispatcher.ResponseData;
  try {
    answer = await abortable(request(url, { method: (init.method ?? "GET").toUpperCase() as Dispatcher.HttpMethod, headers, body, signal, dispatcher: pool() }), signal);
  } catch (error) {
    throw reasonOf(signal) ?? new TypeError("fetch failed", { cause: error });
  }
  // Read now: the connection goes back to the pool whether or not the caller reads the body.
  const bytes: Promise<Uint8Array> = answer.body.bytes().catch((error: unknown) => {
    throw reasonOf(signal) ?? new TypeError("terminated", { cause: error });
  });
  bytes.catch(() => undefined); // a caller that never reads the body must not leave an unhandled rejection
  let used = false;
  const take = () => {
    if (used) return Promise.reject(new TypeError("Body is unusable: Body has already been read"));
    used = true;
    return bytes;
  };
  const status = answer.statusCode;
  return {
    status,
    statusText: STATUS_CODES[status] ?? "",
    ok: status >= 200 && status < 300,
    headers: responseHeaders(answer.headers),
    url,
    redirected: false,
    type: "basic",
    get bodyUsed() {
      return used;
    },
    text: async () => utf8.decode(await take()),
    json: async () => JSON.parse(utf8.decode(await take())) as unknown,
    arrayBuffer: async () => {
      const view = await take();
      return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
    },
  };
}
