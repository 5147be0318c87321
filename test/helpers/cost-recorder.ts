/**
 * Counts Shopify points per Admin operation: wraps an Admin client so that every call's `extensions.cost` (from the
 * answer, or from the library's error for a THROTTLED one) is added to a tally under its operation name.
 */
import type { AdminGraphqlClient } from "../../app/shopify/admin-client";

export interface OperationPoints {
  calls: number;
  requested: number;
  actual: number;
  throttled: number;
}

export function costRecorder(admin: AdminGraphqlClient, tally: Map<string, OperationPoints>): AdminGraphqlClient {
  const record = (query: string, body: unknown) => {
    const name = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
    const cost = (body as { extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null } } } | undefined)?.extensions?.cost;
    const entry = tally.get(name) ?? { calls: 0, requested: 0, actual: 0, throttled: 0 };
    entry.calls += 1;
    entry.requested += cost?.requestedQueryCost ?? 0;
    entry.actual += cost?.actualQueryCost ?? 0;
    if (cost && cost.actualQueryCost === null) entry.throttled += 1;
    tally.set(name, entry);
  };
  return {
    ...admin,
    async graphql(query, options) {
      try {
        const response = await admin.graphql(query, options);
        record(query, await response.clone().json());
        return response;
      } catch (thrown) {
        record(query, (thrown as { body?: unknown }).body);
        throw thrown;
      }
    },
  };
}
