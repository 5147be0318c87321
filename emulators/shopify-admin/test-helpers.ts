/** Helpers for the emulator's own tests (real HTTP on a random port). */
import { startShopifyEmulator, type ShopifyEmulator, type ShopifyEmulatorOptions } from "./server";

export const DEMO_TOKEN = "shpat_etiquette_demo";
export const DEMO_SHOP = "etiquette-demo.myshopify.com";

/** Response JSON is navigated freely in tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Loose = any;

export interface GqlBody {
  data?: Record<string, Loose> | null;
  errors?: Loose;
  extensions?: { cost?: { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } }; search?: unknown };
}

export async function startTestEmulator(options: ShopifyEmulatorOptions = {}) {
  const emulator: ShopifyEmulator = await startShopifyEmulator({ port: 0, ...options });
  const post = async (query: string, variables: Record<string, unknown> = {}, token = DEMO_TOKEN, path = "/admin/api/2026-10/graphql.json") => {
    const response = await fetch(`${emulator.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": token },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as GqlBody };
  };
  /** Runs a document and fails loudly on any GraphQL error. */
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const { status, body } = await post(query, variables);
    if (status !== 200 || body.errors) throw new Error(`GraphQL failed (${status}): ${JSON.stringify(body.errors)}`);
    return body.data as Record<string, Loose>;
  };
  const inspect = async (path: string, method = "GET") => {
    const response = await fetch(`${emulator.url}${path}`, { method });
    return { status: response.status, body: (await response.json()) as Loose };
  };
  return { emulator, post, gql, inspect };
}

export type TestEmulator = Awaited<ReturnType<typeof startTestEmulator>>;
