import { z } from "zod";
import type { ShopAddressQuery } from "../../types/admin.generated";
import { runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/** The shop's name, e-mail and address: the starting point of the sender address in Settings. */
export const SHOP_ADDRESS_QUERY = `#graphql
  query ShopAddress {
    shop {
      name
      email
      shopAddress {
        company
        address1
        address2
        city
        zip
        countryCodeV2
        phone
      }
    }
  }
`;

const dataSchema = z.object({
  shop: z.object({
    name: z.string(),
    email: z.string(),
    shopAddress: z.object({
      company: z.string().nullish(),
      address1: z.string().nullish(),
      address2: z.string().nullish(),
      city: z.string().nullish(),
      zip: z.string().nullish(),
      countryCodeV2: z.string().nullish(),
      phone: z.string().nullish(),
    }),
  }),
});
const _generatedShapeIsAccepted: MatchesGenerated<ShopAddressQuery, typeof dataSchema> = true;
export type ShopAddress = z.infer<typeof dataSchema>["shop"];

export async function fetchShopAddress(admin: AdminGraphqlClient): Promise<ShopAddress> {
  return (await runAdmin(admin, "ShopAddress", SHOP_ADDRESS_QUERY, {}, dataSchema)).shop;
}
