/** Builds a client on a fake fetch routed by "METHOD /path" (path without the base path and query). */
import { createLabelServiceClient, type CreateLabelServiceClientInput, type LabelServiceLogger } from "../client";
import { Semaphore } from "../semaphore";
import { InMemoryTokenCache } from "../token-cache";
import { fakeFetch, fakeJwt, json, type RecordedCall } from "./fake-fetch";

export const BASE_URL = "https://staging.labels.example/api";
export const PASSWORD = "Pa55word-tr3s-secret";
export const EMAIL = "ops@librairie.example";

export type Route = (call: RecordedCall, nth: number, init: RequestInit) => Response | Promise<Response>;

export function tokenFor(n: number, expSeconds = 2_000_000_000): string {
  return fakeJwt({ sub: 1, n, exp: expSeconds });
}

export function setup(routes: Record<string, Route>, extra: Partial<CreateLabelServiceClientInput> = {}) {
  const counts = new Map<string, number>();
  const logLines: string[] = [];
  const logger: LabelServiceLogger = {
    debug: (message, data) => logLines.push(`debug ${message} ${JSON.stringify(data)}`),
    info: (message, data) => logLines.push(`info ${message} ${JSON.stringify(data)}`),
    warn: (message, data) => logLines.push(`warn ${message} ${JSON.stringify(data)}`),
    error: (message, data) => logLines.push(`error ${message} ${JSON.stringify(data)}`),
  };
  const sleeps: number[] = [];
  const fake = fakeFetch((call, _index, init) => {
    const path = new URL(call.url).pathname.replace(/^\/api/, "");
    const key = `${call.method} ${path}`;
    const nth = counts.get(key) ?? 0;
    counts.set(key, nth + 1);
    const route = routes[key];
    if (route) return route(call, nth, init);
    if (key === "POST /authenticate") return json({ auth_token: tokenFor(nth + 1) });
    return json({ error: `no route for ${key}` }, 404);
  });
  const tokenCache = extra.tokenCache ?? new InMemoryTokenCache();
  const client = createLabelServiceClient({
    shop: "librairie.myshopify.com",
    account: { baseUrl: BASE_URL, email: EMAIL, password: PASSWORD },
    fetch: fake.fetch,
    tokenCache,
    carrierServicesCache: new Map(),
    semaphore: new Semaphore(4),
    logger,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { client, fake, logLines, sleeps, tokenCache };
}
