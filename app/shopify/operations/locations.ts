import { z } from "zod";
import type { ShopLocationsQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/**
 * The shop's locations and their addresses: Settings lists them so each one gets a sender address, prefilled from
 * the location's own address. Shops have a handful; 50 covers every plan below Plus, and more are read page by page.
 */
export const SHOP_LOCATIONS_QUERY = `#graphql
  query ShopLocations($after: String) {
    locations(first: 50, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        address {
          address1
          address2
          city
          zip
          countryCode
          phone
        }
      }
    }
  }
`;

const dataSchema = z.object({
  locations: z.object({
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
    nodes: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        address: z.object({
          address1: z.string().nullish(),
          address2: z.string().nullish(),
          city: z.string().nullish(),
          zip: z.string().nullish(),
          countryCode: z.string().nullish(),
          phone: z.string().nullish(),
        }),
      }),
    ),
  }),
});
const _generatedShapeIsAccepted: MatchesGenerated<ShopLocationsQuery, typeof dataSchema> = true;
export type ShopLocation = z.infer<typeof dataSchema>["locations"]["nodes"][number];

/** At most 10 pages (500 locations): past that, Settings shows the first 500. */
export async function fetchShopLocations(admin: AdminGraphqlClient): Promise<ShopLocation[]> {
  const locations: ShopLocation[] = [];
  let after: string | null = null;
  for (let page = 0; page < 10; page += 1) {
    const data: z.infer<typeof dataSchema> = await runAdmin(admin, "ShopLocations", SHOP_LOCATIONS_QUERY, { after }, dataSchema);
    locations.push(...data.locations.nodes);
    if (!data.locations.pageInfo.hasNextPage || !data.locations.pageInfo.endCursor) break;
    after = data.locations.pageInfo.endCursor;
  }
  return locations;
}
