/** A recording fake of fetch for the client's unit tests. */
import type { FetchInit, FetchLike } from "../client";

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeHandler = (call: RecordedCall, index: number, init: FetchInit) => Response | Promise<Response>;

export interface FakeFetch {
  fetch: FetchLike;
  calls: RecordedCall[];
  /** Calls whose URL path (without query) equals `path`. */
  callsTo(path: string): RecordedCall[];
}

export function fakeFetch(handler: FakeHandler): FakeFetch {
  const calls: RecordedCall[] = [];
  return {
    calls,
    callsTo: (path) => calls.filter((call) => new URL(call.url).pathname === path),
    fetch: async (url, init) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const call: RecordedCall = {
        url,
        method: init.method ?? "GET",
        headers,
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      return handler(call, calls.length - 1, init);
    },
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** An unsigned JWT-shaped token with the given claims. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.c2lnbmF0dXJl`;
}

/** Never answers; rejects like fetch does when the signal aborts (timeout). */
export function hangUntilAborted(init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    const signal = init.signal;
    if (!signal) return;
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** The error undici's fetch throws when the connection is refused. */
export function connectionRefused(): Error {
  const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
  return new TypeError("fetch failed", { cause });
}

/** The error undici's fetch throws when the server closes the socket after the request was sent. */
export function socketClosed(): Error {
  const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
  return new TypeError("fetch failed", { cause });
}
