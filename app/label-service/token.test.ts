import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { fakeJwt, json } from "./__fixtures__/fake-fetch";
import { setup, tokenFor } from "./__fixtures__/setup";
import { jwtExpiry, tokenRenewAt } from "./mapping";
import { InMemoryTokenCache } from "./token-cache";

const created = { message: "ok", reference: "T1", label_url: "u", id: "1", tracking_url: "t" };

describe("token cache", () => {
  it("reuses a cached token across calls and across clients sharing the cache", async () => {
    const tokenCache = new InMemoryTokenCache();
    const first = setup({ "GET /labels": () => json([]) }, { tokenCache });
    await first.client.listLabels({ page: 1 });
    await first.client.listLabels({ page: 2 });
    expect(first.fake.callsTo("/api/authenticate")).toHaveLength(1);
    const second = setup({ "GET /labels": () => json([]) }, { tokenCache });
    await second.client.listLabels({ page: 1 });
    expect(second.fake.callsTo("/api/authenticate")).toHaveLength(0);
    expect(tokenCache.get("librairie.myshopify.com:staging")?.token).toBe(tokenFor(1));
  });

  it("keeps tokens of another shop or environment apart", async () => {
    const tokenCache = new InMemoryTokenCache();
    const a = setup({ "GET /labels": () => json([]) }, { tokenCache });
    await a.client.listLabels({ page: 1 });
    const b = setup({ "GET /labels": () => json([]) }, { tokenCache, environment: "production" });
    await b.client.listLabels({ page: 1 });
    expect(b.fake.callsTo("/api/authenticate")).toHaveLength(1);
    expect(tokenCache.size).toBe(2);
  });

  it("renews shortly before the JWT exp", async () => {
    let clock = 1_700_000_000_000;
    const exp = clock / 1000 + 3600;
    const { client, fake } = setup(
      {
        "POST /authenticate": (_call, nth) => json({ auth_token: fakeJwt({ n: nth, exp: exp + nth * 3600 }) }),
        "GET /labels": () => json([]),
      },
      { now: () => clock, options: { tokenRefreshMarginSeconds: 60, tokenLifetimeSeconds: 999_999 } },
    );
    await client.listLabels({ page: 1 });
    clock += (3600 - 61) * 1000;
    await client.listLabels({ page: 1 });
    expect(fake.callsTo("/api/authenticate")).toHaveLength(1);
    clock += 2_000;
    await client.listLabels({ page: 1 });
    expect(fake.callsTo("/api/authenticate")).toHaveLength(2);
  });

  it("uses the configured lifetime when the token has no readable exp", async () => {
    let clock = 5_000_000;
    const { client, fake } = setup(
      { "POST /authenticate": (_call, nth) => json({ auth_token: `opaque-token-${nth}` }), "GET /labels": () => json([]) },
      { now: () => clock, options: { tokenLifetimeSeconds: 600, tokenRefreshMarginSeconds: 30 } },
    );
    await client.listLabels({ page: 1 });
    clock += 569_000;
    await client.listLabels({ page: 1 });
    expect(fake.callsTo("/api/authenticate")).toHaveLength(1);
    clock += 2_000;
    await client.listLabels({ page: 1 });
    expect(fake.callsTo("/api/authenticate")).toHaveLength(2);
    expect(fake.callsTo("/api/labels")[2]?.headers.authorization).toBe("Bearer opaque-token-1");
  });

  it("shares one authentication among concurrent callers", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { client, fake } = setup({
      "POST /authenticate": async () => {
        await gate;
        return json({ auth_token: tokenFor(1) });
      },
      "GET /labels": () => json([]),
    });
    const calls = Array.from({ length: 6 }, (_, i) => client.listLabels({ page: i + 1 }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    await Promise.all(calls);
    expect(fake.callsTo("/api/authenticate")).toHaveLength(1);
    expect(fake.callsTo("/api/labels")).toHaveLength(6);
  });

  it("on a 401, re-authenticates exactly once and replays the call exactly once", async () => {
    const { client, fake } = setup({
      "POST /labels/generate_label": (call) =>
        call.headers.authorization === `Bearer ${tokenFor(1)}` ? json({ error: "Token expiré" }, 401) : json(created),
    });
    await client.authenticate();
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result.status).toBe("created");
    expect(fake.callsTo("/api/authenticate")).toHaveLength(2);
    const generates = fake.callsTo("/api/labels/generate_label");
    expect(generates.map((call) => call.headers.authorization)).toEqual([`Bearer ${tokenFor(1)}`, `Bearer ${tokenFor(2)}`]);
  });

  it("concurrent 401s with the same stale token lead to one re-authentication", async () => {
    const { client, fake } = setup({
      "GET /labels": (call) => (call.headers.authorization === `Bearer ${tokenFor(1)}` ? json({}, 401) : json([])),
    });
    await client.authenticate();
    await Promise.all([1, 2, 3, 4].map((page) => client.listLabels({ page })));
    expect(fake.callsTo("/api/authenticate")).toHaveLength(2);
  });

  it("a second 401 is an auth error, with no further attempt", async () => {
    const { client, fake } = setup({ "GET /labels": () => json({ error: "Non autorisé" }, 401) });
    await expect(client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "auth", status: 401, serviceMessage: "Non autorisé" });
    expect(fake.callsTo("/api/authenticate")).toHaveLength(2);
    expect(fake.callsTo("/api/labels")).toHaveLength(2);
    const gen = setup({ "POST /labels/generate_label": () => json({}, 401) });
    expect(await gen.client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "rejected", error: { kind: "auth" } });
    expect(gen.fake.callsTo("/api/labels/generate_label")).toHaveLength(2);
  });
});

describe("token expiry arithmetic", () => {
  it("reads exp from a JWT and ignores anything else", () => {
    expect(jwtExpiry(fakeJwt({ exp: 1234 }))).toBe(1234);
    expect(jwtExpiry(fakeJwt({ sub: 1 }))).toBeUndefined();
    expect(jwtExpiry("not-a-jwt")).toBeUndefined();
    expect(jwtExpiry("a.%%%.c")).toBeUndefined();
  });

  it("caps the refresh margin for short-lived tokens", () => {
    const now = 1_000_000;
    const token = fakeJwt({ exp: (now + 10_000) / 1000 });
    expect(tokenRenewAt(token, now, { tokenLifetimeSeconds: 3600, tokenRefreshMarginSeconds: 60 })).toBe(now + 9_000);
  });
});
