import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { connectionRefused, hangUntilAborted, json, socketClosed } from "./__fixtures__/fake-fetch";
import { BASE_URL, EMAIL, PASSWORD, setup, tokenFor } from "./__fixtures__/setup";
import { LabelServiceError } from "./errors";
import { Semaphore } from "./semaphore";

const created = {
  message: "Étiquette créée avec succès",
  reference: "JD014600006281230704",
  label_url: "https://staging.labels.example/files/l1.pdf",
  id: 1201,
  tracking_url: "https://www.dhl.com/track?n=JD014600006281230704",
  carrier: "Dhl",
};

describe("authenticate", () => {
  it("maps the credentials to a JSON body with both fields and JSON headers", async () => {
    const { client, fake } = setup({});
    await client.authenticate();
    const call = fake.calls[0];
    expect(call?.body).toEqual({ email: EMAIL, password: PASSWORD });
    expect(call?.headers["content-type"]).toBe("application/json");
    expect(call?.headers.accept).toBe("application/json");
    expect(call?.headers.authorization).toBeUndefined();
  });

  it("calls POST {base_url}/authenticate", async () => {
    const { client, fake } = setup({});
    await client.authenticate();
    expect(fake.calls.map((call) => `${call.method} ${call.url}`)).toEqual([`POST ${BASE_URL}/authenticate`]);
  });

  it("parses auth_token and sends it as a bearer token", async () => {
    const { client, fake } = setup({ "GET /labels": () => json([]) });
    await client.listLabels({ page: 1 });
    expect(fake.callsTo("/api/labels")[0]?.headers.authorization).toBe(`Bearer ${tokenFor(1)}`);
  });

  it("turns a refused password into an auth error with status, readable message and no secret", async () => {
    const { client } = setup({
      "POST /authenticate": () => json({ error: "Identifiants invalides" }, 401),
    });
    const error = await client.authenticate().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LabelServiceError);
    expect(error).toMatchObject({ kind: "auth", status: 401, operation: "authenticate", serviceMessage: "Identifiants invalides" });
    expect((error as LabelServiceError).message).toContain("Settings");
    expect((error as LabelServiceError).messageFr).toContain("Réglages");
    const result = await client.testConnection();
    expect(result.ok).toBe(false);
  });

  it("reports an answer without auth_token as a protocol error", async () => {
    const { client } = setup({ "POST /authenticate": () => json({ token: "" }) });
    await expect(client.authenticate()).rejects.toMatchObject({ kind: "protocol" });
  });
});

describe("generate_label", () => {
  it("validates the request with the contract and sends it unchanged as JSON with the bearer token", async () => {
    const { client, fake } = setup({ "POST /labels/generate_label": () => json(created) });
    const request = exampleLabelRequest();
    await client.generateLabel(request);
    const call = fake.callsTo("/api/labels/generate_label")[0];
    expect(call?.body).toEqual(request);
    expect(call?.headers["content-type"]).toBe("application/json");
    expect(call?.headers.authorization).toMatch(/^Bearer /);
  });

  it("sends the optional base64 invoice, and refuses a misspelled optional field without any call", async () => {
    const { client, fake } = setup({ "POST /labels/generate_label": () => json(created) });
    const invoice = Buffer.from("%PDF-1.4 facture").toString("base64");
    expect((await client.generateLabel({ ...exampleLabelRequest(), invoice_base64: invoice })).status).toBe("created");
    expect(fake.callsTo("/api/labels/generate_label")[0]?.body).toMatchObject({ invoice_base64: invoice });
    const typo = await client.generateLabel({ ...exampleLabelRequest({ custom_reference: "20201218-099" }), insured_vaule: 5000 });
    expect(typo).toMatchObject({ status: "rejected", error: { fieldErrors: { insured_vaule: [expect.stringContaining("unknown field")] } } });
    expect(fake.callsTo("/api/labels/generate_label")).toHaveLength(1);
  });

  it("calls POST {base_url}/labels/generate_label", async () => {
    const { client, fake } = setup({ "POST /labels/generate_label": () => json(created) });
    await client.generateLabel(exampleLabelRequest());
    expect(fake.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `POST ${BASE_URL}/authenticate`,
      `POST ${BASE_URL}/labels/generate_label`,
    ]);
  });

  it("parses a success leniently: five fields required, id as string, extras kept", async () => {
    const { client } = setup({ "POST /labels/generate_label": () => json(created) });
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result.status).toBe("created");
    if (result.status !== "created") return;
    expect(result.label).toMatchObject({ id: "1201", reference: created.reference, carrier: "Dhl" });
  });

  it("classifies a 422 as rejected with status, raw body and the field messages", async () => {
    const body = { errors: { "recipient.zip": ["doit être rempli(e)"], weight: ["est trop lourd", "maximum 30000"] } };
    const { client } = setup({ "POST /labels/generate_label": () => json(body, 422) });
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result.status).toBe("rejected");
    if (result.status !== "rejected") return;
    expect(result.error).toMatchObject({ kind: "rejected", status: 422, httpStatus: 422, body: JSON.stringify(body) });
    expect(result.error.fieldErrors).toEqual(body.errors);
    expect(result.error.message).toContain("recipient.zip: doit être rempli(e)");
    expect(result.error.message).toContain("20201218-013");
    expect(result.error.message).toContain("Nothing was charged");
    expect(result.error.messageFr).toContain("Rien n'a été facturé");
  });

  it("does not send an invalid request and names the fields", async () => {
    const { client, fake } = setup({ "POST /labels/generate_label": () => json(created) });
    const result = await client.generateLabel(exampleLabelRequest({ weight: "3,5", custom_reference: "order-1" }));
    expect(fake.calls).toHaveLength(0);
    expect(result.status).toBe("rejected");
    if (result.status !== "rejected") return;
    expect(Object.keys(result.error.fieldErrors ?? {}).sort()).toEqual(["custom_reference", "weight"]);
  });

  it("classifies a 5xx as unknown and never retries it", async () => {
    const { client, fake } = setup({ "POST /labels/generate_label": () => json({ error: "Erreur interne" }, 502) });
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", status: 502 } });
    expect(fake.callsTo("/api/labels/generate_label")).toHaveLength(1);
  });

  it("classifies a timeout as unknown, once", async () => {
    const { client, fake } = setup(
      { "POST /labels/generate_label": (_call, _nth, init) => hangUntilAborted(init) },
      { options: { generateTimeoutMs: 30 } },
    );
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", code: "TIMEOUT" } });
    expect(fake.callsTo("/api/labels/generate_label")).toHaveLength(1);
  });

  it("classifies a connection closed after sending as unknown, a refused connection as rejected (nothing sent)", async () => {
    const lost = setup({ "POST /labels/generate_label": () => Promise.reject(socketClosed()) });
    expect(await lost.client.generateLabel(exampleLabelRequest())).toMatchObject({
      status: "unknown",
      error: { kind: "unknown_outcome", code: "UND_ERR_SOCKET" },
    });
    const refused = setup({ "POST /labels/generate_label": () => Promise.reject(connectionRefused()) });
    expect(await refused.client.generateLabel(exampleLabelRequest())).toMatchObject({
      status: "rejected",
      error: { kind: "network", code: "ECONNREFUSED" },
    });
  });

  it("classifies a body lost while reading as unknown", async () => {
    const { client } = setup({
      "POST /labels/generate_label": () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"message":"Étiq'));
              controller.error(Object.assign(new Error("terminated"), { code: "UND_ERR_SOCKET" }));
            },
          }),
          { status: 200 },
        ),
    });
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "unknown", error: { kind: "unknown_outcome", status: 200 } });
  });

  it("treats a 200 whose body lacks a documented field as unknown (it may have been charged)", async () => {
    const { client } = setup({ "POST /labels/generate_label": () => json({ message: "ok", id: 3 }) });
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "unknown", error: { kind: "protocol" } });
  });

  it("classifies a 429 as rejected/rate_limited with Retry-After, without retrying", async () => {
    const { client, fake, sleeps } = setup({
      "POST /labels/generate_label": () => json({ error: "Trop de requêtes" }, 429, { "retry-after": "7" }),
    });
    const result = await client.generateLabel(exampleLabelRequest());
    expect(result).toMatchObject({ status: "rejected", error: { kind: "rate_limited", status: 429, retryAfterMs: 7000 } });
    expect(fake.callsTo("/api/labels/generate_label")).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("returns rejected when authentication fails before generate_label is sent", async () => {
    const { client, fake } = setup({ "POST /authenticate": () => json({ error: "Identifiants invalides" }, 401) });
    expect(await client.generateLabel(exampleLabelRequest())).toMatchObject({ status: "rejected", error: { kind: "auth" } });
    expect(fake.callsTo("/api/labels/generate_label")).toHaveLength(0);
  });
});

describe("list labels", () => {
  it("maps the page to the page query parameter with the bearer token", async () => {
    const { client, fake } = setup({ "GET /labels": () => json([]) });
    await client.listLabels({ page: 3 });
    const call = fake.callsTo("/api/labels")[0];
    expect(new URL(call?.url ?? "").searchParams.get("page")).toBe("3");
    expect(call?.headers.authorization).toMatch(/^Bearer /);
    expect(call?.body).toBeUndefined();
  });

  it("calls GET {base_url}/labels?page=N", async () => {
    const { client, fake } = setup({ "GET /labels": () => json([]) });
    await client.listLabels({ page: 2 });
    expect(fake.callsTo("/api/labels").map((call) => `${call.method} ${call.url}`)).toEqual([`GET ${BASE_URL}/labels?page=2`]);
  });

  it("parses every accepted envelope, keeps unknown fields, custom_reference optional, skips items without id", async () => {
    const items = [{ id: 9, reference: "T9", custom_reference: "20260101-001", weight: "100" }, { id: "8" }, { reference: "no id" }];
    for (const [envelope, body] of [
      ["array", items],
      ["labels", { labels: items, meta: { page: 1 } }],
      ["data", { data: items }],
    ] as const) {
      const { client } = setup({ "GET /labels": () => json(body) });
      const page = await client.listLabels({ page: 1 });
      expect(page.envelope).toBe(envelope);
      expect(page.labels).toEqual([{ id: "9", reference: "T9", custom_reference: "20260101-001", weight: "100" }, { id: "8" }]);
      expect(page.skipped).toBe(1);
    }
  });

  it("throws a protocol error for an unknown envelope and unknown_outcome for a 5xx, without retry", async () => {
    const odd = setup({ "GET /labels": () => json({ items: "nope" }) });
    await expect(odd.client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "protocol", operation: "list_labels" });
    const down = setup({ "GET /labels": () => json({ error: "indisponible" }, 503) });
    await expect(down.client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "unknown_outcome", status: 503, serviceMessage: "indisponible" });
    expect(down.fake.callsTo("/api/labels")).toHaveLength(1);
  });

  it("iterates every page until an empty one", async () => {
    const pages: Record<string, unknown[]> = { "1": [{ id: 5 }, { id: 4 }], "2": [{ id: 3 }, { id: 2 }], "3": [{ id: 1 }], "4": [] };
    const { client, fake } = setup({ "GET /labels": (call) => json(pages[new URL(call.url).searchParams.get("page") ?? ""] ?? []) });
    const ids: string[] = [];
    for await (const label of client.allLabels()) ids.push(label.id);
    expect(ids).toEqual(["5", "4", "3", "2", "1"]);
    expect(fake.callsTo("/api/labels")).toHaveLength(4);
  });

  it("fails rather than loop when the service ignores the page parameter", async () => {
    const { client } = setup({ "GET /labels": () => json([{ id: 1 }]) });
    const read = async () => {
      for await (const _page of client.labelPages()) void _page;
    };
    await expect(read()).rejects.toMatchObject({ kind: "protocol" });
  });

  it("finds a label by custom_reference, stopping at the page that has it", async () => {
    const pages: Record<string, unknown[]> = {
      "1": [{ id: 5, custom_reference: "20260101-005" }],
      "2": [{ id: 4, custom_reference: "20260101-004" }],
      "3": [{ id: 3, custom_reference: "20260101-003" }],
    };
    const { client, fake } = setup({ "GET /labels": (call) => json(pages[new URL(call.url).searchParams.get("page") ?? ""] ?? []) });
    expect(await client.findLabelByReference("20260101-004")).toMatchObject({ id: "4" });
    expect(fake.callsTo("/api/labels")).toHaveLength(2);
  });

  it("gives up after maxPages and returns null", async () => {
    const { client, fake } = setup({ "GET /labels": (call) => json([{ id: Number(new URL(call.url).searchParams.get("page")) }]) });
    expect(await client.findLabelByReference("20260101-404", { maxPages: 3 })).toBeNull();
    expect(fake.callsTo("/api/labels")).toHaveLength(3);
  });

  describe("lookup back to a time (the list is newest first)", () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString();
    /** `total` labels, one a minute from 09:00, newest first, 20 a page; label n has reference R-n. */
    const list = (total: number, extra: (n: number) => Record<string, unknown> = () => ({})) => {
      const all = Array.from({ length: total }, (_, index) => total - index).map((n) => ({ id: n, custom_reference: `R-${n}`, created_at: at(n - 60), ...extra(n) }));
      return (call: { url: string }) => {
        const page = Number(new URL(call.url).searchParams.get("page"));
        return json(all.slice((page - 1) * 20, page * 20));
      };
    };

    it("finds a label beyond 400 newer ones (past the old 20-page limit)", async () => {
      const { client, fake } = setup({ "GET /labels": list(1_000) });
      const found = await client.lookUpLabelByReference("R-550", { since: new Date(at(550 - 60 - 15)) });
      expect(found).toMatchObject({ status: "found", label: { id: "550" } });
      expect(fake.callsTo("/api/labels").length).toBeGreaterThan(20);
      expect(await client.lookUpLabelById("480", { since: new Date(at(480 - 60 - 15)) })).toMatchObject({ status: "found", label: { id: "480" } });
    });

    it("stops at the page that reaches labels older than `since`, and calls that absent", async () => {
      const { client, fake } = setup({ "GET /labels": list(1_000) });
      // Labels 1..1000; since = the time of label 600: pages 1..21 hold 1000..581.
      const lookup = await client.lookUpLabelByReference("R-nothing", { since: new Date(at(600 - 60)) });
      expect(lookup).toEqual({ status: "absent", pagesRead: 21, readTo: "since" });
      expect(fake.callsTo("/api/labels")).toHaveLength(21);
    });

    it("reads to the end of the list when the items carry no date", async () => {
      const { client } = setup({ "GET /labels": list(45, () => ({ created_at: undefined })) });
      expect(await client.lookUpLabelByReference("R-nothing", { since: new Date(at(0)) })).toEqual({ status: "absent", pagesRead: 3, readTo: "end" });
    });

    it("is incomplete, never absent, when the page cap stops it before `since`", async () => {
      const { client, fake } = setup({ "GET /labels": list(1_000) }, { options: { lookupMaxPages: 5 } });
      expect(await client.lookUpLabelByReference("R-nothing", { since: new Date(at(0)) })).toEqual({ status: "incomplete", pagesRead: 5, reason: "page_cap" });
      expect(fake.callsTo("/api/labels")).toHaveLength(5);
    });

    it("is incomplete when a label listed since that time carries no reference (it could be the one)", async () => {
      const { client } = setup({ "GET /labels": list(60, (n) => (n === 50 ? { custom_reference: undefined } : {})) });
      expect(await client.lookUpLabelByReference("R-nothing", { since: new Date(at(40 - 60)) })).toMatchObject({ status: "incomplete", reason: "unreferenced" });
      // The same label older than `since` does not matter.
      expect(await client.lookUpLabelByReference("R-nothing", { since: new Date(at(55 - 60)) })).toMatchObject({ status: "absent" });
    });
  });

  it("retries a 429 after Retry-After, bounded", async () => {
    const limited = () => json({ error: "Trop de requêtes" }, 429, { "retry-after": "2" });
    const ok = setup({ "GET /labels": (_call, nth) => (nth === 0 ? limited() : json([])) });
    await ok.client.listLabels({ page: 1 });
    expect(ok.sleeps).toEqual([2000]);
    const never = setup({ "GET /labels": limited }, { options: { maxRateLimitRetries: 2 } });
    await expect(never.client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "rate_limited", retryAfterMs: 2000 });
    expect(never.fake.callsTo("/api/labels")).toHaveLength(3);
    expect(never.sleeps).toEqual([2000, 2000]);
  });

  it("does not wait for a Retry-After beyond the configured maximum", async () => {
    const { client, sleeps } = setup(
      { "GET /labels": () => json({}, 429, { "retry-after": "600" }) },
      { options: { maxRetryAfterMs: 30_000 } },
    );
    await expect(client.listLabels({ page: 1 })).rejects.toMatchObject({ kind: "rate_limited", retryAfterMs: 600_000 });
    expect(sleeps).toEqual([]);
  });
});

describe("carrier services", () => {
  it("maps the country to the country query parameter, upper-cased, and refuses a bad code without calling", async () => {
    const { client, fake } = setup({ "GET /carrier_services/services": () => json(["n"]) });
    await client.carrierServices("de");
    expect(new URL(fake.calls[1]?.url ?? "").searchParams.get("country")).toBe("DE");
    await expect(client.carrierServices("Germany")).rejects.toMatchObject({ kind: "rejected", fieldErrors: { country: [expect.any(String)] } });
    expect(fake.calls).toHaveLength(2);
  });

  it("calls GET {base_url}/carrier_services/services?country=XX, or the configured path", async () => {
    const plain = setup({ "GET /carrier_services/services": () => json([]) });
    await plain.client.carrierServices("CH");
    expect(plain.fake.calls[1]?.url).toBe(`${BASE_URL}/carrier_services/services?country=CH`);
    const custom = setup({ "GET /v2/services": () => json([]) }, { options: { carrierServicesPath: "/v2/services" } });
    await custom.client.carrierServices("CH");
    expect(custom.fake.calls[1]?.url).toBe(`${BASE_URL}/v2/services?country=CH`);
  });

  it("normalises strings, objects with a name-like field, and envelopes", async () => {
    const shapes: unknown[] = [
      ["n", "p"],
      [{ name: "n", label: "Domestic Express" }, { code: "p", description: "Express Worldwide" }],
      { services: [{ service_name: "n", title: "Domestic Express" }, "p"] },
      { data: [{ carrier_service_name: "n", label: "Domestic Express" }, { id: "p" }] },
    ];
    for (const shape of shapes) {
      const { client } = setup({ "GET /carrier_services/services": () => json(shape) });
      const services = await client.carrierServices("DE");
      expect(services.map(({ name }) => name)).toEqual(["n", "p"]);
      expect(services.every((service) => service.raw !== undefined)).toBe(true);
    }
    const record = { carrier_name: "Dhl", name: "U", label: "Express Worldwide (EU)" };
    const labelled = setup({ "GET /carrier_services/services": () => json({ services: [record] }) });
    expect(await labelled.client.carrierServices("DE")).toEqual([{ name: "U", label: "Express Worldwide (EU)", carrier: "Dhl", raw: record }]);
  });

  it("turns a 4xx into a rejected error with the extracted message", async () => {
    const { client } = setup({ "GET /carrier_services/services": () => json({ error: "Pays non desservi" }, 400) });
    await expect(client.carrierServices("KP")).rejects.toMatchObject({ kind: "rejected", status: 400, serviceMessage: "Pays non desservi" });
  });

  it("caches per (environment, country) until the time limit", async () => {
    let clock = 1_000_000;
    const { client, fake } = setup(
      { "GET /carrier_services/services": () => json(["n"]) },
      { now: () => clock, options: { carrierServicesTtlMs: 60_000 } },
    );
    await client.carrierServices("DE");
    await client.carrierServices("DE");
    await client.carrierServices("CH");
    expect(fake.callsTo("/api/carrier_services/services")).toHaveLength(2);
    clock += 60_001;
    await client.carrierServices("DE");
    expect(fake.callsTo("/api/carrier_services/services")).toHaveLength(3);
  });
});

describe("pacing", () => {
  it("keeps at most maxConcurrency calls in flight per account", async () => {
    let inFlight = 0;
    let peak = 0;
    const { client } = setup(
      {
        "GET /labels": async () => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight -= 1;
          return json([]);
        },
      },
      { semaphore: new Semaphore(2) },
    );
    await Promise.all(Array.from({ length: 8 }, (_, i) => client.listLabels({ page: i + 1 })));
    expect(peak).toBe(2);
  });
});
