import { z } from "zod";
import type { ShopTimeZoneQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/** The shop's time zone: the calendar every date the merchant sees is shown in. */
export const SHOP_TIME_ZONE_QUERY = `#graphql
  query ShopTimeZone {
    shop {
      ianaTimezone
    }
  }
`;

const dataSchema = z.object({ shop: z.object({ ianaTimezone: z.string().min(1) }) });
const _generatedShapeIsAccepted: MatchesGenerated<ShopTimeZoneQuery, typeof dataSchema> = true;

export async function fetchShopTimeZone(admin: AdminGraphqlClient): Promise<string> {
  return (await runAdmin(admin, "ShopTimeZone", SHOP_TIME_ZONE_QUERY, {}, dataSchema)).shop.ianaTimezone;
}
