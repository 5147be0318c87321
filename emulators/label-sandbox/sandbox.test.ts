import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exampleLabelRequest } from "../../app/label-service/__fixtures__/example-request";
import { customsRequired } from "../../app/shipping/customs";
import { CUSTOMS_CASES, PARIS } from "../../app/shipping/customs-cases";
import { signToken, verifyToken } from "./jwt";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "./server";
import { needsCustoms, servicesFor } from "./services";
import { validateLabelRequest } from "./validation";

/** The public guide's example payload (Dhl, service "n", two books), to a French recipient ("n" is domestic). */
export function guideExample(overrides: Record<string, unknown> = {}) {
  return {
    ...exampleLabelRequest(),
    recipient: { lastname: "Martin", firstname: "Zoé", address_line1: "5 avenue Foch", country: "FR", city: "Lyon", zip: "69006", email: "zoe@example.fr" },
    ...overrides,
  };
}

const guideProducts = exampleLabelRequest().cn23_data!.products;

const swiss = (overrides: Record<string, unknown> = {}) =>
  guideExample({
    carrier_service_name: "P",
    recipient: { lastname: "Muster", firstname: "Max", address_line1: "Rue du Rhône 1", country: "CH", city: "Genève", zip: "1204", email: "max@example.ch" },
    ...overrides,
  });

describe("validation (pure)", () => {
  const fieldsOf = (body: unknown) => {
    const result = validateLabelRequest(body);
    return result.ok ? [] : Object.keys(result.errors);
  };

  it("accepts the public guide's example", () => {
    expect(validateLabelRequest(guideExample()).ok).toBe(true);
  });

  it.each([
    ["weight with a decimal", { weight: "3.5" }, "weight", "grammes"],
    ["weight with a unit", { weight: "3kg" }, "weight", "grammes"],
    ["weight as a number", { weight: 3000 }, "weight", "chaîne"],
    ["too heavy", { weight: "45000" }, "weight", "30000"],
    ["Dhl without width", { width: undefined }, "width", "obligatoire"],
    ["Dhl without description", { description: "" }, "description", "Dhl"],
    ["unknown carrier", { carrier_name: "Fedoux" }, "carrier_name", "inconnu"],
    ["service not valid for the destination", { carrier_service_name: "P" }, "carrier_service_name", "pas disponible vers FR"],
    ["unknown service", { carrier_service_name: "zz" }, "carrier_service_name", "inconnu"],
    ["dot decimal price", { cn23_data: { category: "3", shipping_price: "10.26", products: guideProducts } }, "cn23_data.shipping_price", "virgule"],
    ["bad category", { cn23_data: { category: "9", shipping_price: "10,26", products: guideProducts } }, "cn23_data.category", "1 à 6"],
    ["bad label type", { sender: { ...guideExample().sender, labelType: "PNG" } }, "sender.labelType", "format inconnu"],
    ["local sender phone", { sender: { ...guideExample().sender, phone1: "0612345678" } }, "sender.phone1", "international"],
  ])("rejects %s with a French message on the field", (_name, override, field, words) => {
    const result = validateLabelRequest(guideExample(override));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field]?.join(" ")).toContain(words);
  });

  it("a Colissimo label needs no dimensions or description", () => {
    expect(fieldsOf(guideExample({ carrier_name: "Colissimo", carrier_service_name: "DOM", width: undefined, height: undefined, length: undefined, description: undefined }))).toEqual([]);
  });

  it("requires CN23 outside the EU customs territory, with an origin per product", () => {
    expect(fieldsOf(swiss({ cn23_data: undefined }))).toEqual(["cn23_data"]);
    const noOrigin = swiss();
    noOrigin.cn23_data = { ...noOrigin.cn23_data!, products: [{ ...guideProducts[0]!, country_code: undefined as unknown as string }, guideProducts[1]!] };
    expect(fieldsOf(noOrigin)).toEqual(["cn23_data.products[0].country_code"]);
    expect(fieldsOf(guideExample({ cn23_data: undefined }))).toEqual([]);
  });

  it.each(CUSTOMS_CASES)("asks for a CN23 from Paris to %s %s exactly when the app does (%s, %s)", (country, zip, customs) => {
    const body = guideExample({
      cn23_data: undefined,
      sender: { ...guideExample().sender, ...PARIS },
      recipient: { ...guideExample().recipient, country, zip },
    });
    expect(fieldsOf(body).includes("cn23_data")).toBe(customs);
    expect(customsRequired(PARIS, { country, zip })).toBe(customs);
  });

  it("decides customs from the sender's territory too (Réunion to Réunion needs none, Réunion to Paris does)", () => {
    const fromReunion = { ...guideExample().sender, zip: "97400", city: "Saint-Denis" };
    const to = (zip: string) => guideExample({ cn23_data: undefined, sender: fromReunion, recipient: { ...guideExample().recipient, zip } });
    expect(fieldsOf(to("97410")).includes("cn23_data")).toBe(false);
    expect(fieldsOf(to("75004")).includes("cn23_data")).toBe(true);
  });

  it("knows the EU customs territory at country level, plus French overseas postcodes", () => {
    expect([needsCustoms("DE", "10115"), needsCustoms("CH", "1204"), needsCustoms("FR", "97400"), needsCustoms("RE", "97400"), needsCustoms("MC", "98000")]).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    expect(servicesFor("FR").map((service) => `${service.carrier_name}:${service.name}`)).toContain("Dhl:n");
    expect(servicesFor("DE").map((service) => service.name)).toContain("U");
  });

  it("checks the optional insured value (cents) and base64 invoice when they are sent", () => {
    const invoice = Buffer.from("%PDF-1.4 facture").toString("base64");
    expect(fieldsOf(guideExample({ insured_value: 7385, invoice_base64: invoice }))).toEqual([]);
    expect(fieldsOf(guideExample({ insured_value: 73.85, invoice_base64: "pas du base64 !" }))).toEqual(["insured_value", "invoice_base64"]);
    expect(fieldsOf(guideExample({ insured_value: "7385", invoice_base64: `data:application/pdf;base64,${invoice}` }))).toEqual(["insured_value", "invoice_base64"]);
    expect(fieldsOf(guideExample({ insured_value: -1, invoice_base64: "" }))).toEqual(["insured_value", "invoice_base64"]);
  });

  it("extra recipient fields are accepted", () => {
    expect(fieldsOf(guideExample({ recipient: { ...guideExample().recipient, phone1: "+33611223344", address_line2: "Bât. B", company_name: "ACME" } }))).toEqual([]);
  });
});

describe("tokens", () => {
  it("signs and verifies HS256, and refuses expired or tampered tokens", () => {
    const token = signToken({ sub: "a@b.c", iat: 100, exp: 200 }, "secret");
    expect(verifyToken(token, "secret", 150)).toEqual({ ok: true, claims: { sub: "a@b.c", iat: 100, exp: 200 } });
    expect(verifyToken(token, "secret", 200)).toEqual({ ok: false, reason: "expired" });
    expect(verifyToken(token, "other", 150)).toEqual({ ok: false, reason: "signature" });
    expect(verifyToken("a.b", "secret", 150)).toEqual({ ok: false, reason: "malformed" });
  });
});

describe("the sandbox over HTTP", () => {
  let sandbox: LabelSandbox;
  let clock = Date.parse("2026-11-22T10:00:00Z");
  const dir = mkdtempSync(path.join(tmpdir(), "label-sandbox-"));

  beforeAll(async () => {
    sandbox = await startLabelSandbox({ port: 0, pageSize: 5, tokenLifetimeSeconds: 600, now: () => clock, random: () => 0.5, dataFile: path.join(dir, "data.json") });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  });

  const token = async () => {
    const response = await fetch(`${sandbox.url}/authenticate`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(DEMO_ACCOUNT),
    });
    return ((await response.json()) as { auth_token: string }).auth_token;
  };
  const generate = async (body: unknown, bearer?: string) =>
    fetch(`${sandbox.url}/labels/generate_label`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${bearer ?? (await token())}` },
      body: JSON.stringify(body),
    });
  const inspect = async () =>
    (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { count: number; countByReference: Record<string, number>; labels: { label_url: string; tracking_url: string; custom_reference: string }[] };
  const setFaults = (faults: unknown) => fetch(`${sandbox.url}/__admin/faults`, { method: "POST", body: JSON.stringify(faults) });

  it("authenticates the demo account with a JWT carrying exp; bad credentials get 401", async () => {
    const jwt = await token();
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as { exp: number; iat: number };
    expect(payload.exp - payload.iat).toBe(600);
    const bad = await fetch(`${sandbox.url}/authenticate`, { method: "POST", body: JSON.stringify({ email: DEMO_ACCOUNT.email, password: "nope" }) });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: "identifiants invalides" });
  });

  it("counts authentications per account and refused tokens on GET /__admin/stats; reset zeroes them", async () => {
    const stats = async () =>
      (await (await fetch(`${sandbox.url}/__admin/stats`)).json()) as {
        authentications: number;
        authenticationsByAccount: Record<string, number>;
        failedAuthentications: number;
        rejectedTokens: number;
        purchases: number;
        purchasesInFlightMs: number[];
      };
    expect(await stats()).toEqual({ authentications: 0, authenticationsByAccount: {}, failedAuthentications: 0, rejectedTokens: 0, purchases: 0, purchasesInFlightMs: [] });
    const jwt = await token();
    await fetch(`${sandbox.url}/authenticate`, { method: "POST", body: JSON.stringify({ email: DEMO_ACCOUNT.email, password: "nope" }) });
    expect((await generate(guideExample(), jwt)).status).toBe(200);
    expect((await generate(guideExample(), "not.a.token")).status).toBe(401);
    expect((await fetch(`${sandbox.url}/labels?page=1`)).status).toBe(401);
    expect(await stats()).toEqual({
      authentications: 1,
      authenticationsByAccount: { [DEMO_ACCOUNT.email]: 1 },
      failedAuthentications: 1,
      rejectedTokens: 2,
      // The refused one was in flight too (until its 401); only the answered one was bought.
      purchases: 1,
      purchasesInFlightMs: [expect.any(Number), expect.any(Number)],
    });
    const labels = (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as { labels: { account: string; carrier_service_name: string }[] };
    expect(labels.labels).toEqual([expect.objectContaining({ account: DEMO_ACCOUNT.email, carrier_service_name: "n" })]);
    await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
    expect((await stats()).authentications).toBe(0);
  });

  it("zeroes its counters alone on DELETE /__admin/stats: labels, faults and tokens stay", async () => {
    await setFaults({ latency: { probability: 1, minMs: 30, maxMs: 30 } });
    const jwt = await token();
    expect((await generate(guideExample(), jwt)).status).toBe(200);
    const cleared = await fetch(`${sandbox.url}/__admin/stats`, { method: "DELETE" });
    expect(await cleared.json()).toEqual({ authentications: 0, authenticationsByAccount: {}, failedAuthentications: 0, rejectedTokens: 0, purchases: 0, purchasesInFlightMs: [] });
    // Nothing in flight since: the tally starts again at the next purchase, made with the token issued before.
    expect((await (await fetch(`${sandbox.url}/__admin/stats`)).json()).purchasesInFlightMs).toEqual([]);
    expect((await generate(guideExample(), jwt)).status).toBe(200);
    const stats = (await (await fetch(`${sandbox.url}/__admin/stats`)).json()) as { purchases: number; purchasesInFlightMs: (number | null)[] };
    expect(stats.purchases).toBe(1);
    expect(stats.purchasesInFlightMs[1]).toBeGreaterThanOrEqual(20);
    expect((await (await fetch(`${sandbox.url}/__admin/labels`)).json()).count).toBe(2);
    expect((await (await fetch(`${sandbox.url}/__admin/faults`)).json()).latency).toMatchObject({ minMs: 30, maxMs: 30 });
  });

  it("tallies the time spent with each number of purchases in flight", async () => {
    await setFaults({ latency: { probability: 1, minMs: 120, maxMs: 120 } });
    const jwt = await token();
    await Promise.all([generate(guideExample(), jwt), generate(guideExample(), jwt)]);
    const { purchases, purchasesInFlightMs } = (await (await fetch(`${sandbox.url}/__admin/stats`)).json()) as { purchases: number; purchasesInFlightMs: (number | null)[] };
    expect(purchases).toBe(2);
    // Both waited 120 ms together; nothing ever had three in flight.
    expect(purchasesInFlightMs[2]).toBeGreaterThanOrEqual(100);
    expect(purchasesInFlightMs[3]).toBeUndefined();
  });

  it("refuses missing, invalid and expired tokens with 401 {error}", async () => {
    expect((await fetch(`${sandbox.url}/labels?page=1`)).status).toBe(401);
    expect((await generate(guideExample(), "not.a.token")).status).toBe(401);
    const jwt = await token();
    clock += 601_000;
    const expired = await generate(guideExample(), jwt);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({ error: "jeton d'authentification expiré" });
  });

  it("creates the guide's example label with a French message, a 10-digit DHL reference and working links", async () => {
    const response = await generate(guideExample());
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>;
    expect(body.message).toMatch(/Étiquette/);
    expect(body.reference).toMatch(/^[0-9]{10}$/);
    expect(Object.keys(body).sort()).toEqual(["id", "label_url", "message", "reference", "tracking_url"]);
    const pdf = await fetch(body.label_url!);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    const document = await PDFDocument.load(bytes);
    const { width, height } = document.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    const tracking = await fetch(body.tracking_url!);
    expect(await tracking.text()).toContain(body.reference);
    expect((await inspect()).countByReference).toEqual({ "20201218-013": 1 });
  });

  it("renders 10x15 PDFs and ZPL with a Code 128 barcode of the reference", async () => {
    const small = (await (await generate(guideExample({ sender: { ...guideExample().sender, labelType: "PDF_10x15_300dpi" } }))).json()) as Record<string, string>;
    const document = await PDFDocument.load(new Uint8Array(await (await fetch(small.label_url!)).arrayBuffer()));
    expect(Math.round(document.getPage(0).getSize().width)).toBe(283);
    const zpl = (await (await generate(guideExample({ sender: { ...guideExample().sender, labelType: "ZPL_10x15_203dpi" } }))).json()) as Record<string, string>;
    const text = await (await fetch(zpl.label_url!)).text();
    expect(text.startsWith("^XA")).toBe(true);
    expect(text).toContain(`^BCN`);
    expect(text).toContain(`^FD${zpl.reference}^FS`);
  });

  it("answers 422 with one French message per field", async () => {
    const response = await generate(swiss({ cn23_data: undefined, weight: "2,5" }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; errors: Record<string, string[]> };
    expect(Object.keys(body.errors).sort()).toEqual(["cn23_data", "weight"]);
    expect((await inspect()).count).toBe(0);
  });

  it("lists labels newest first across pages, with custom_reference, until an empty page", async () => {
    const jwt = await token();
    for (let index = 1; index <= 12; index += 1) {
      clock += 1000;
      await generate(guideExample({ custom_reference: `20261122-${String(index).padStart(3, "0")}` }), jwt);
    }
    const page = async (n: number) =>
      (await (await fetch(`${sandbox.url}/labels?page=${n}`, { headers: { authorization: `Bearer ${jwt}` } })).json()) as { custom_reference: string }[];
    const pages = [await page(1), await page(2), await page(3), await page(4)];
    expect(pages.map((items) => items.length)).toEqual([5, 5, 2, 0]);
    expect(pages[0]![0]!.custom_reference).toBe("20261122-012");
    expect(pages[2]![1]!.custom_reference).toBe("20261122-001");
  });

  it("lists carrier services per country and rejects a bad country", async () => {
    const jwt = await token();
    const services = (await (await fetch(`${sandbox.url}/carrier_services/services?country=de`, { headers: { authorization: `Bearer ${jwt}` } })).json()) as {
      services: { carrier_name: string; name: string }[];
    };
    expect(services.services).toContainEqual(expect.objectContaining({ carrier_name: "Dhl", name: "U" }));
    expect((await fetch(`${sandbox.url}/carrier_services/services?country=Germany`, { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(422);
  });

  describe("faults", () => {
    it("5xx and 429 with Retry-After, for the next N requests only", async () => {
      const jwt = await token();
      await setFaults({ error5xx: { next: 1, status: 502 } });
      expect((await generate(guideExample(), jwt)).status).toBe(502);
      await setFaults({ rateLimit: { next: 1, retryAfterSeconds: 7 } });
      const limited = await generate(guideExample(), jwt);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("7");
      expect((await generate(guideExample(), jwt)).status).toBe(200);
      expect((await inspect()).count).toBe(1);
    });

    it("resets the connection before processing: nothing stored", async () => {
      const jwt = await token();
      await setFaults({ resetBeforeProcessing: { next: 1 } });
      await expect(generate(guideExample(), jwt)).rejects.toThrow();
      expect((await inspect()).count).toBe(0);
    });

    it("charged but response lost: the label is stored, the caller gets a socket error", async () => {
      const jwt = await token();
      await setFaults({ chargedButLost: { next: 1 } });
      await expect(generate(guideExample({ custom_reference: "20261122-777" }), jwt)).rejects.toThrow();
      const bought = await inspect();
      expect(bought.countByReference).toEqual({ "20261122-777": 1 });
      const listed = (await (await fetch(`${sandbox.url}/labels?page=1`, { headers: { authorization: `Bearer ${jwt}` } })).json()) as { custom_reference: string }[];
      expect(listed.map((item) => item.custom_reference)).toEqual(["20261122-777"]);
    });

    it("expires every token issued so far", async () => {
      const jwt = await token();
      await fetch(`${sandbox.url}/__admin/expire-tokens`, { method: "POST" });
      clock += 10;
      expect((await generate(guideExample(), jwt)).status).toBe(401);
      expect((await generate(guideExample(), await token())).status).toBe(200);
    });

    it("adds latency from the configured range (observed through the config, not a clock)", async () => {
      const response = await setFaults({ latency: { probability: 1, minMs: 1, maxMs: 3 } });
      expect(((await response.json()) as { latency: unknown }).latency).toEqual({ probability: 1, next: 0, minMs: 1, maxMs: 3 });
      expect((await generate(guideExample())).status).toBe(200);
      expect((await setFaults({ nonsense: {} })).status).toBe(400);
    });
  });

  it("answers 413 to a body over 5 MB, with or without a token, and keeps serving", async () => {
    const huge = JSON.stringify({ email: "x".repeat(6_000_000) });
    const anonymous = await fetch(`${sandbox.url}/authenticate`, { method: "POST", headers: { "content-type": "application/json" }, body: huge });
    expect(anonymous.status).toBe(413);
    expect(await anonymous.json()).toEqual({ error: "requête trop volumineuse" });
    const noToken = await fetch(`${sandbox.url}/labels/generate_label`, { method: "POST", headers: { "content-type": "application/json" }, body: huge });
    expect(noToken.status).toBe(401);
    const withToken = await generate({ ...guideExample(), description: "x".repeat(6_000_000) });
    expect(withToken.status).toBe(413);
    expect((await fetch(`${sandbox.url}/labels?page=1`, { headers: { authorization: `Bearer ${await token()}` } })).status).toBe(200);
    expect((await generate(guideExample())).status).toBe(200);
  });

  it("keeps labels in its data file across a restart", async () => {
    await generate(guideExample({ custom_reference: "20261122-900" }));
    const file = path.join(dir, "data.json");
    const again = await startLabelSandbox({ port: 0, dataFile: file });
    try {
      const bought = (await (await fetch(`${again.url}/__admin/labels`)).json()) as { countByReference: Record<string, number>; labels: { label_url: string }[] };
      expect(bought.countByReference["20261122-900"]).toBe(1);
      expect((await fetch(bought.labels[0]!.label_url)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
