import { describe, expect, it } from "vitest";
import type { PrismaClient } from "../generated/prisma/client";
import type { AdminGraphqlClient } from "../shopify/admin-client";
import { handleOrderLabelAction } from "./order-label-actions.server";

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

// Nothing may be read or bought before the form is checked: any use of these fails the test.
const untouchable = new Proxy({}, { get: () => { throw new Error("used before the form was checked"); } });
const context = { db: untouchable as PrismaClient, admin: untouchable as AdminGraphqlClient, shop: "a.myshopify.com", orderId: "7100001062" };

describe("the order page's per-location label (decision 0115)", () => {
  it("answers 400, having bought nothing, to a location that is not a Shopify Location id", async () => {
    for (const location of ["", "Lyon", "gid://shopify/Order/1", "gid://shopify/Location/12 OR 1"]) {
      const answer = await handleOrderLabelAction(context, form({ intent: "createForLocation", location })).catch((error: unknown) => error);
      expect(answer, location).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(400);
    }
  });
});
