/**
 * Demo mode: route the Admin API client's HTTP calls to the local Shopify Admin emulator.
 *
 * The app keeps using @shopify/shopify-api's own Admin GraphQL client (same documents, same headers, same
 * throttling handling); only the network endpoint changes, by swapping the library's fetch function.
 * config.server.ts refuses demo mode when NODE_ENV=production, and nothing here can be reached by a request.
 */
import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { installAdminTransport } from "../shopify/admin-transport.server";

export function rewriteAdminUrl(input: string, emulatorUrl: string): string {
  const url = new URL(input);
  if (!url.hostname.endsWith(".myshopify.com") || !url.pathname.startsWith("/admin/")) return input;
  const target = new URL(emulatorUrl);
  url.protocol = target.protocol;
  url.host = target.host;
  return url.toString();
}

let installed = false;

export function installDemoAdminEndpoint(emulatorUrl: string): void {
  if (installed) return;
  installed = true;
  // The app's Admin transport goes under the rewrite: installed over it, it would take the Admin calls before their
  // URL is rewritten and send them to the real *.myshopify.com. Installing it here keeps that order for every caller.
  installAdminTransport();
  const realFetch = abstractFetch;
  setAbstractFetchFunc((input, init) => {
    const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return realFetch(rewriteAdminUrl(href, emulatorUrl), init);
  });
}
