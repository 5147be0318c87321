import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { fakeJwt, json } from "./__fixtures__/fake-fetch";
import { BASE_URL, EMAIL, PASSWORD, setup, tokenFor } from "./__fixtures__/setup";
import type { LabelServiceError } from "./errors";
import { jwtExpiry, tokenRenewAt } from "./mapping";
import { credentialFingerprint, defaultTokenCache, InMemoryTokenCache, tokenCacheKey } from "./token-cache";

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
    const fingerprint = credentialFingerprint({ baseUrl: BASE_URL, email: EMAIL, password: PASSWORD });
    expect(tokenCache.get(tokenCacheKey("librairie.myshopify.com", "staging", fingerprint))?.token).toBe(tokenFor(1));
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

  it("gives other credentials of the same shop and environment their own token (shared cache)", async () => {
    const tokenCache = new InMemoryTokenCache();
    // The service hands out tokens that name the account they belong to.
    const accountToken = (call: { body: unknown }, nth: number) =>
      json({ auth_token: fakeJwt({ sub: (call.body as { email: string }).email, n: nth, exp: 2_000_000_000 }) });
    const old = setup({ "POST /authenticate": accountToken, "POST /labels/generate_label": () => json(created) }, { tokenCache });
    await old.client.generateLabel(exampleLabelRequest());
    expect(old.fake.callsTo("/api/authenticate")).toHaveLength(1);

    // The merchant saves another account: a new client (as the app builds per request), nothing invalidated by hand.
    const other = { baseUrl: BASE_URL, email: "new-account@librairie.example", password: "An0ther-secret-pass" };
    const renewed = setup({ "POST /authenticate": accountToken, "POST /labels/generate_label": () => json(created) }, { tokenCache, account: other });
    await renewed.client.generateLabel(exampleLabelRequest());
    expect(renewed.fake.callsTo("/api/authenticate").map((call) => call.body)).toEqual([{ email: other.email, password: other.password }]);
    const authorization = renewed.fake.callsTo("/api/labels/generate_label")[0]?.headers.authorization ?? "";
    const claims = JSON.parse(Buffer.from(authorization.split(".")[1] ?? "", "base64url").toString()) as { sub: string };
    expect(claims.sub).toBe(other.email);

    // Same e-mail, new password: new token too.
    const newPassword = setup({ "POST /authenticate": accountToken, "GET /labels": () => json([]) }, {
      tokenCache,
      account: { baseUrl: BASE_URL, email: EMAIL, password: "Changed-pa55word" },
    });
    await newPassword.client.listLabels({ page: 1 });
    expect(newPassword.fake.callsTo("/api/authenticate")).toHaveLength(1);
    expect(tokenCache.size).toBe(3);
  });

  it("a wrong password fails authentication instead of reusing the cached token of the right one", async () => {
    const tokenCache = new InMemoryTokenCache();
    const refuseWrongPassword = (call: { body: unknown }, nth: number) =>
      (call.body as { password: string }).password === PASSWORD ? json({ auth_token: tokenFor(nth + 1) }) : json({ error: "Identifiants invalides" }, 401);
    const good = setup({ "POST /authenticate": refuseWrongPassword, "GET /labels": () => json([]) }, { tokenCache });
    await good.client.listLabels({ page: 1 });
    const wrong = setup(
      { "POST /authenticate": refuseWrongPassword, "GET /labels": () => json([]), "POST /labels/generate_label": () => json(created) },
      { tokenCache, account: { baseUrl: BASE_URL, email: EMAIL, password: "not-the-password" } },
    );
    await expect(wrong.client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "auth", operation: "authenticate", status: 401 });
    expect(await wrong.client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "rejected", error: { kind: "auth" } });
    expect(wrong.fake.callsTo("/api/labels")).toHaveLength(0);
    expect(wrong.fake.callsTo("/api/labels/generate_label")).toHaveLength(0);
    expect(await wrong.client.testConnection()).toMatchObject({ ok: false });
    // The right account's token is still cached and used.
    await good.client.listLabels({ page: 2 });
    expect(good.fake.callsTo("/api/authenticate")).toHaveLength(1);
  });

  it("authenticates again when the base URL changes", async () => {
    const tokenCache = new InMemoryTokenCache();
    const a = setup({ "GET /labels": () => json([]) }, { tokenCache });
    await a.client.listLabels({ page: 1 });
    const b = setup({ "GET /labels": () => json([]) }, { tokenCache, account: { baseUrl: "https://labels-eu.example/api", email: EMAIL, password: PASSWORD } });
    await b.client.listLabels({ page: 1 });
    expect(b.fake.calls.filter((call) => call.url === "https://labels-eu.example/api/authenticate")).toHaveLength(1);
    expect(b.fake.callsTo("/api/labels")[0]?.headers.authorization).toBe(`Bearer ${tokenFor(1)}`);
    expect(tokenCache.size).toBe(2);
  });

  it("separates credentials in the process-wide default cache too, across client instances", async () => {
    const shop = `default-cache-${Date.now()}.myshopify.com`;
    const first = setup({ "GET /labels": () => json([]) }, { shop, tokenCache: undefined });
    await first.client.listLabels({ page: 1 });
    const again = setup({ "GET /labels": () => json([]) }, { shop, tokenCache: undefined });
    await again.client.listLabels({ page: 1 });
    expect(again.fake.callsTo("/api/authenticate")).toHaveLength(0);
    const changed = setup({ "GET /labels": () => json([]) }, {
      shop,
      tokenCache: undefined,
      account: { baseUrl: BASE_URL, email: EMAIL, password: "Changed-pa55word" },
    });
    await changed.client.listLabels({ page: 1 });
    expect(changed.fake.callsTo("/api/authenticate")).toHaveLength(1);
    const fingerprint = credentialFingerprint({ baseUrl: BASE_URL, email: EMAIL, password: "Changed-pa55word" });
    expect(defaultTokenCache.get(tokenCacheKey(shop, "staging", fingerprint))).toBeDefined();
  });

  it("fingerprints base URL, e-mail and password one-way, without the password in the key", () => {
    const account = { baseUrl: BASE_URL, email: EMAIL, password: PASSWORD };
    const fingerprint = credentialFingerprint(account);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(credentialFingerprint({ ...account })).toBe(fingerprint);
    const variants = [
      { ...account, baseUrl: "https://labels.example/api" },
      { ...account, email: "other@librairie.example" },
      { ...account, password: `${PASSWORD}!` },
      // No ambiguity from concatenation.
      { baseUrl: BASE_URL, email: `${EMAIL}${PASSWORD.slice(0, 1)}`, password: PASSWORD.slice(1) },
    ];
    for (const variant of variants) expect(credentialFingerprint(variant)).not.toBe(fingerprint);
    const key = tokenCacheKey("librairie.myshopify.com", "staging", fingerprint);
    expect(key).toBe(`librairie.myshopify.com:staging:${fingerprint}`);
    expect(key).not.toContain(PASSWORD);
    expect(key).not.toContain(EMAIL);
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

describe("a fresh token refused too", () => {
  it("says the credentials were accepted and the service refused the operation, not 'check the e-mail and password' (en, fr)", async () => {
    const { client } = setup({ "GET /labels": () => json({ error: "Accès refusé" }, 401) });
    const error = await client.listLabels({ page: 1 }).then(
      () => undefined,
      (caught: unknown) => caught as LabelServiceError,
    );
    expect(error).toMatchObject({ kind: "auth", status: 401, serviceMessage: "Accès refusé" });
    expect(error?.message).toMatch(/e-mail and password were accepted/);
    expect(error?.message).not.toMatch(/refused the e-mail or password|Check the account in Settings/);
    expect(error?.messageFr).toMatch(/mot de passe ont été acceptés/);
    expect(error?.messageFr).not.toMatch(/refusé l'e-mail ou le mot de passe|Vérifiez le compte dans Réglages/);
    expect(error?.message).toContain("listing labels");
  });

  it("for generate_label: nothing charged, the purchase is refused with that explanation", async () => {
    const gen = setup({ "POST /labels/generate_label": () => json({}, 401) });
    const result = await gen.client.generateLabel(exampleLabelRequest());
    if (result.status !== "rejected") throw new Error(JSON.stringify(result));
    expect(result.error.message).toMatch(/refused its new access token while creating the label.*Nothing was charged/);
    expect(result.error.messageFr).toMatch(/Rien n'a été facturé/);
  });

  it("a refused password still says to check the e-mail and password", async () => {
    const { client } = setup({ "POST /authenticate": () => json({ error: "Identifiants invalides" }, 401) });
    await expect(client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "auth", message: expect.stringMatching(/refused the e-mail or password/) });
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
