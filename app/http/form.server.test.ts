import { describe, expect, it } from "vitest";
import { formFields, readForm } from "./form.server";

function post(body: BodyInit | null, headers: Record<string, string>) {
  return new Request("https://app.test/app/orders/1", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; body: { error: string; message: string } }> {
  try {
    await promise;
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: { error: thrown.headers.get("x-etiquette-refused-body") ?? "", message: await thrown.text() } };
    throw thrown;
  }
  throw new Error("expected a refusal");
}

describe("readForm", () => {
  it("reads a url-encoded form and a multipart form", async () => {
    const encoded = await readForm(post("intent=create&weight=500", { "content-type": "application/x-www-form-urlencoded" }));
    expect(formFields(encoded)).toEqual({ intent: "create", weight: "500" });
    const multipart = new FormData();
    multipart.set("intent", "create");
    const request = new Request("https://app.test/x", { method: "POST", body: multipart });
    expect(formFields(await readForm(request))).toEqual({ intent: "create" });
  });

  it("answers 400 with a sentence in the merchant's language for a body that is not a web form", async () => {
    const json = await refusal(readForm(post('{"intent":"create"}', { "content-type": "application/json" })));
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: "content_type", message: expect.stringContaining("Reload the page") });
    const none = await refusal(readForm(post("intent=create", { "accept-language": "fr-FR" })));
    expect(none.status).toBe(400);
    expect(none.body.message).toContain("Rechargez la page");
  });

  it("answers 400 for a broken multipart body instead of failing", async () => {
    const broken = await refusal(
      readForm(post("--xyz\r\nContent-Disposition: form-data; name=\"intent\"\r\n\r\ncreate", { "content-type": "multipart/form-data; boundary=xyz" })),
    );
    expect(broken).toMatchObject({ status: 400, body: { error: "malformed" } });
    const noBoundary = await refusal(readForm(post("intent=create", { "content-type": "multipart/form-data" })));
    expect(noBoundary.status).toBe(400);
  });

  it("answers 413 for a body over the limit, declared or streamed without a length", async () => {
    const big = "description=" + "x".repeat(70_000);
    const declared = await refusal(readForm(post(big, { "content-type": "application/x-www-form-urlencoded", "content-length": String(big.length) })));
    expect(declared).toMatchObject({ status: 413, body: { error: "too_large" } });

    const encoder = new TextEncoder();
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 10_000) controller.close();
        else controller.enqueue(encoder.encode("x".repeat(1024)));
      },
    });
    const streamed = await refusal(readForm(post(endless, { "content-type": "application/x-www-form-urlencoded" }), { maxBytes: 10_000 }));
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(100);
  });

  it("refuses a file in a form that takes none", async () => {
    const form = new FormData();
    form.set("intent", "create");
    form.set("upload", new Blob(["%PDF"]), "label.pdf");
    const request = new Request("https://app.test/x", { method: "POST", body: form });
    expect(await refusal(readForm(request))).toMatchObject({ status: 400, body: { error: "file" } });
  });
});
