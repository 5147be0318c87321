import { z } from "zod";
import type { FulfillmentCancelMutation } from "../../types/admin.generated";
import { assertNoUserErrors, runAdmin, type AdminGraphqlClient, type MatchesGenerated } from "../admin-client";

/** Cancels one fulfillment (voiding its label): Shopify gives its items back to be fulfilled again. */
export const FULFILLMENT_CANCEL_MUTATION = `#graphql
  mutation FulfillmentCancel($id: ID!) {
    fulfillmentCancel(id: $id) {
      fulfillment {
        id
        status
      }
      userErrors {
        field
        message
      }
    }
  }
`;

const cancelSchema = z.object({
  fulfillmentCancel: z
    .object({
      fulfillment: z.object({ id: z.string(), status: z.string() }).nullish(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() })),
    })
    .nullish(),
});
const _cancelMatches: MatchesGenerated<FulfillmentCancelMutation, typeof cancelSchema> = true;

/** The cancelled fulfillment's status as Shopify reports it; a refusal throws AdminApiError("user_errors"). */
export async function cancelFulfillment(admin: AdminGraphqlClient, fulfillmentId: string): Promise<{ id: string; status: string }> {
  const data = await runAdmin(admin, "FulfillmentCancel", FULFILLMENT_CANCEL_MUTATION, { id: fulfillmentId }, cancelSchema);
  const payload = data.fulfillmentCancel;
  assertNoUserErrors("FulfillmentCancel", payload?.userErrors ?? []);
  if (!payload?.fulfillment) throw new Error("FulfillmentCancel returned no fulfillment and no error");
  return payload.fulfillment;
}
