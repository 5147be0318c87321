/**
 * The Shopify library's HTTP calls for Admin GraphQL documents go through `leanFetch` (decision 0213): a POST of a
 * JSON document to `/admin/api/<version>/graphql.json`, the call a label makes once or twice. Everything else the
 * library sends (OAuth, token exchange, REST, anything unusual in its shape) keeps the fetch it had.
 */
import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { leanFetch } from "../http/lean-fetch.server";

const ADMIN_GRAPHQL_PATH = /^\/admin\/api\/[^/]+\/graphql\.json$/;

type Init = Parameters<typeof fetch>[1];

/** The calls that go the lean way: a POST with a string body to the Admin GraphQL endpoint, and nothing exotic. */
export function isAdminGraphqlCall(href: string, init: Init): boolean {
  if ((init?.method ?? "GET").toUpperCase() !== "POST" || typeof init?.body !== "string") return false;
  if (init.redirect && init.redirect !== "follow") return false;
  try {
    return ADMIN_GRAPHQL_PATH.test(new URL(href).pathname);
  } catch {
    return false;
  }
}

let installed = false;

/** Once per process, after the library's Node adapter has set its fetch. */
export function installAdminTransport(): void {
  if (installed) return;
  installed = true;
  const previous = abstractFetch;
  setAbstractFetchFunc((input, init) => {
    const href = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
    if (href === undefined || !isAdminGraphqlCall(href, init)) return previous(input, init);
    return leanFetch(href, { method: "POST", headers: init?.headers, body: init?.body as string, signal: init?.signal }) as unknown as Promise<Response>;
  });
}
