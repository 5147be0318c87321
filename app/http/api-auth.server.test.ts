/** The JSON API's helpers: bounded JSON bodies checked with zod, error answers in the caller's language. */
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { appTestEnv } from "../../test/helpers/app-env";
import { createTestDatabaseUrl } from "../../test/helpers/test-db";

// The module configures the Shopify library on import: the app's test environment first.
const database = createTestDatabaseUrl();
Object.assign(process.env, appTestEnv(database.url));
const { apiError, apiUnauthorized, MAX_API_BODY_BYTES, readApiBody } = await import("./api-auth.server");
afterAll(() => database.cleanup());

const schema = z.object({ orderIds: z.array(z.string()).max(3) });
const post = (body: BodyInit | null, headers: Record<string, string> = { "Content-Type": "application/json" }) =>
  new Request("https://etiquette.test/api/x", { method: "POST", body, headers });

describe("readApiBody", () => {
  it("parses and validates a JSON body", async () => {
    expect(await readApiBody(post(JSON.stringify({ orderIds: ["1"] })), schema)).toEqual({ ok: true, data: { orderIds: ["1"] } });
  });

  it("reads no body as {}", async () => {
    expect(await readApiBody(post(null, {}), z.object({}).strict())).toEqual({ ok: true, data: {} });
  });

  it("refuses another content type, broken JSON, a body the schema refuses, and a body over the limit", async () => {
    expect(await readApiBody(post("orderIds=1", { "Content-Type": "application/x-www-form-urlencoded" }), schema)).toEqual({ ok: false, reason: "content_type" });
    expect(await readApiBody(post("{\"orderIds\":"), schema)).toEqual({ ok: false, reason: "malformed" });
    expect(await readApiBody(post(JSON.stringify({ orderIds: ["1", "2", "3", "4"] })), schema)).toEqual({ ok: false, reason: "invalid" });
    const large = JSON.stringify({ orderIds: ["x".repeat(MAX_API_BODY_BYTES)] });
    expect(await readApiBody(post(large), schema)).toEqual({ ok: false, reason: "too_large" });
    // Streamed without a declared length: counted while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i += 1) controller.enqueue(new Uint8Array(MAX_API_BODY_BYTES / 2));
        controller.close();
      },
    });
    const chunked = new Request("https://etiquette.test/api/x", { method: "POST", body: stream, headers: { "Content-Type": "application/json" }, duplex: "half" } as RequestInit);
    expect(await readApiBody(chunked, schema)).toEqual({ ok: false, reason: "too_large" });
  });
});

describe("error answers", () => {
  it("apiError: {code, message} in the caller's language, with the status and the API's CORS", async () => {
    const response = apiError({ cors: (answer) => (answer.headers.set("Access-Control-Allow-Origin", "*"), answer) }, 404, "order_not_found", "fr");
    expect(response.status).toBe(404);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await response.json()).toEqual({ code: "order_not_found", message: expect.stringMatching(/introuvable/) });
  });

  it("apiUnauthorized: a JSON 401 readable by the admin's origin only", async () => {
    const fromAdmin = apiUnauthorized(new Request("https://etiquette.test/api/x?locale=en", { headers: { Origin: "https://admin.shopify.com" } }));
    expect(fromAdmin.status).toBe(401);
    expect(fromAdmin.headers.get("Access-Control-Allow-Origin")).toBe("https://admin.shopify.com");
    expect(((await fromAdmin.json()) as { message: string }).message).toMatch(/Shopify admin/);
    const elsewhere = apiUnauthorized(new Request("https://etiquette.test/api/x", { headers: { Origin: "https://evil.example" } }));
    expect(elsewhere.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});
