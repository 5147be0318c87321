import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { labelServiceConfigFromEnv, labelServiceConfigSchema } from "./config";
import { extractServiceMessage } from "./errors";
import { generateLabelRequest, parseCarrierServices, parseLabelList, parseLabelResponse, parseRetryAfter } from "./mapping";

describe("extractServiceMessage", () => {
  it("reads {error}, {errors: {field: [msgs]}}, {errors: [...]}, {message}, text and HTML", () => {
    expect(extractServiceMessage('{"error":"Service indisponible pour ce pays"}').text).toBe("Service indisponible pour ce pays");
    expect(extractServiceMessage('{"errors":{"zip":["doit être rempli(e)"],"sender":{"phone1":["invalide"]}}}')).toEqual({
      text: "zip: doit être rempli(e); sender.phone1: invalide",
      fieldErrors: { zip: ["doit être rempli(e)"], "sender.phone1": ["invalide"] },
    });
    expect(extractServiceMessage('{"errors":["Poids manquant","Pays manquant"]}').text).toBe("Poids manquant, Pays manquant");
    expect(extractServiceMessage('{"message":"Requête invalide"}').text).toBe("Requête invalide");
    expect(extractServiceMessage('{"error":{"message":"Transporteur inconnu"}}').text).toBe("Transporteur inconnu");
    expect(extractServiceMessage("Bad Gateway").text).toBe("Bad Gateway");
    expect(extractServiceMessage("<html><body><h1>502 Bad Gateway</h1></body></html>").text).toBe("502 Bad Gateway");
    expect(extractServiceMessage("").text).toBeUndefined();
  });
});

describe("request and response mapping", () => {
  it("accepts the guide's example and refuses a dot decimal price", () => {
    expect(generateLabelRequest(exampleLabelRequest()).ok).toBe(true);
    const bad = generateLabelRequest({ ...exampleLabelRequest(), cn23_data: { category: "3", shipping_price: "10.26", products: [] } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.fieldErrors)).toEqual(["cn23_data.shipping_price", "cn23_data.products"]);
  });

  it("accepts an optional base64 invoice and an insured value, and refuses an invoice that is not base64", () => {
    const pdf = Buffer.from("%PDF-1.4 invoice 20201218-013\n").toString("base64");
    const ok = generateLabelRequest({ ...exampleLabelRequest(), insured_value: 7385, invoice_base64: pdf });
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.request.body).toMatchObject({ insured_value: 7385, invoice_base64: pdf });
    for (const invoice of ["", "not base64!", `data:application/pdf;base64,${pdf}`, "abc", "YWJj\nZGVm", "a-_b", 42]) {
      const bad = generateLabelRequest({ ...exampleLabelRequest(), invoice_base64: invoice });
      expect(bad.ok, JSON.stringify(invoice)).toBe(false);
      if (!bad.ok) expect(Object.keys(bad.fieldErrors)).toEqual(["invoice_base64"]);
    }
  });

  it("refuses unknown top-level fields instead of silently dropping them", () => {
    const misspelled = generateLabelRequest({ ...exampleLabelRequest(), insured_valu: 7385, invoice: "YWJj" });
    expect(misspelled.ok).toBe(false);
    if (!misspelled.ok) {
      expect(misspelled.fieldErrors).toEqual({
        insured_valu: ["unknown field: check its spelling (the service would not receive it)"],
        invoice: ["unknown field: check its spelling (the service would not receive it)"],
      });
    }
    // A field set to undefined is simply absent.
    expect(generateLabelRequest({ ...exampleLabelRequest(), insured_value: undefined, invoice_base64: undefined }).ok).toBe(true);
  });

  it("requires the five documented response fields", () => {
    expect(parseLabelResponse({ message: "", reference: "R", label_url: "u", id: 2, tracking_url: "t", x: 1 })).toEqual({
      ok: true,
      label: { message: "", reference: "R", label_url: "u", id: "2", tracking_url: "t", x: 1 },
    });
    const missing = parseLabelResponse({ message: "", reference: "R", id: 2, tracking_url: "t" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.problem).toContain("label_url");
  });

  it("tolerates odd optional field types in list items", () => {
    const parsed = parseLabelList([{ id: 1, custom_reference: 20260101, reference: null }]);
    expect(parsed).toMatchObject({ ok: true, labels: [{ id: "1" }] });
    if (parsed.ok) expect(parsed.labels[0]?.custom_reference).toBeUndefined();
  });

  it("refuses a carrier-service answer with no list", () => {
    expect(parseCarrierServices({ error: "x" }).ok).toBe(false);
    expect(parseCarrierServices([]).ok).toBe(true);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("configuration", () => {
  it("defaults to staging, trims the base URL and reads the environment variables", () => {
    const config = labelServiceConfigFromEnv({
      LABEL_SERVICE_STAGING_URL: "https://staging.example/api/",
      LABEL_SERVICE_STAGING_EMAIL: "a@b.fr",
      LABEL_SERVICE_STAGING_PASSWORD: "pw",
    });
    expect(config.defaultEnvironment).toBe("staging");
    expect(config.environments.staging.baseUrl).toBe("https://staging.example/api");
    expect(config.environments.production).toBeUndefined();
  });

  it("refuses a non-http URL and an invalid e-mail", () => {
    const result = labelServiceConfigSchema.safeParse({
      environments: { staging: { baseUrl: "ftp://x.example", email: "nope", password: "pw" } },
    });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues.map((issue) => issue.path.join("."))).toEqual(["environments.staging.baseUrl", "environments.staging.email"]);
  });
});
