import { describe, expect, it } from "vitest";
import { rewriteAdminUrl } from "./admin-endpoint.server";

describe("demo Admin endpoint", () => {
  it("sends only a shop's Admin API calls to the emulator", () => {
    expect(rewriteAdminUrl("https://etiquette-demo.myshopify.com/admin/api/2026-10/graphql.json", "http://127.0.0.1:4020")).toBe(
      "http://127.0.0.1:4020/admin/api/2026-10/graphql.json",
    );
    expect(rewriteAdminUrl("https://example.com/admin/api/2026-10/graphql.json", "http://127.0.0.1:4020")).toBe(
      "https://example.com/admin/api/2026-10/graphql.json",
    );
    expect(rewriteAdminUrl("https://etiquette-demo.myshopify.com/oauth/access_token", "http://127.0.0.1:4020")).toBe(
      "https://etiquette-demo.myshopify.com/oauth/access_token",
    );
  });
});
