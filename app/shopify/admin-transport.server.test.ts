import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { installAdminTransport, isAdminGraphqlCall } from "./admin-transport.server";

describe("which library calls take the lean transport", () => {
  const graphql = "https://shop-1.myshopify.com/admin/api/2026-10/graphql.json";
  it.each([
    ["an Admin GraphQL POST", graphql, { method: "POST", body: "{}" }, true],
    ["lower-case method", graphql, { method: "post", body: "{}" }, true],
    ["a GET", graphql, { method: "GET" }, false],
    ["a body that is not a string", graphql, { method: "POST", body: new URLSearchParams() }, false],
    ["a redirect mode other than follow", graphql, { method: "POST", body: "{}", redirect: "manual" as const }, false],
    ["REST", "https://shop-1.myshopify.com/admin/api/2026-10/orders.json", { method: "POST", body: "{}" }, false],
    ["OAuth", "https://shop-1.myshopify.com/admin/oauth/access_token", { method: "POST", body: "{}" }, false],
    ["not a URL", "graphql.json", { method: "POST", body: "{}" }, false],
  ])("%s", (_name, href, init, expected) => {
    expect(isAdminGraphqlCall(href, init)).toBe(expected);
  });
});

describe("installAdminTransport", () => {
  let server: Server;
  let base = "";
  const seen: { method?: string; url?: string; agent?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        seen.push({ method: request.method, url: request.url, agent: request.headers["x-agent"] as string | undefined, body });
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ data: { shop: { name: "Boutique" } }, extensions: { cost: { requestedQueryCost: 1 } } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("serves Admin GraphQL POSTs itself and hands every other call to the fetch the library had", async () => {
    const previous = vi.fn((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => fetch(input, init));
    setAbstractFetchFunc(previous as unknown as typeof fetch);
    installAdminTransport();
    installAdminTransport(); // once per process: a second call changes nothing

    const answer = await abstractFetch(`${base}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-agent": "library" },
      body: JSON.stringify({ query: "{ shop { name } }" }),
    });
    expect(answer.ok).toBe(true);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toEqual({ data: { shop: { name: "Boutique" } }, extensions: { cost: { requestedQueryCost: 1 } } });
    expect(previous).not.toHaveBeenCalled();

    await (await abstractFetch(`${base}/admin/oauth/access_token`, { method: "POST", body: "{}" })).text();
    expect(previous).toHaveBeenCalledTimes(1);
    expect(seen.map((one) => [one.method, one.url, one.agent, one.body])).toEqual([
      ["POST", "/admin/api/2026-10/graphql.json", "library", '{"query":"{ shop { name } }"}'],
      ["POST", "/admin/oauth/access_token", undefined, "{}"],
    ]);
  });
});
