import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { json, socketClosed } from "./__fixtures__/fake-fetch";
import { PASSWORD, setup, tokenFor } from "./__fixtures__/setup";
import { LabelServiceError, redact, redactValue } from "./errors";

function everything(value: unknown): string {
  if (value instanceof LabelServiceError) return JSON.stringify({ ...value.toJSON(), message: value.message, stack: value.stack });
  return JSON.stringify(value);
}

describe("secrets never reach errors or logs", () => {
  it("a service echoing the password and token back in error bodies leaks neither", async () => {
    const token = tokenFor(1);
    const { client, logLines } = setup({
      "POST /authenticate": (_call, nth) =>
        nth === 0
          ? json({ auth_token: token })
          : json({ error: `mot de passe ${PASSWORD} refusé`, params: { email: "x", password: PASSWORD } }, 401),
      "POST /labels/generate_label": (call) =>
        json({ error: `jeton invalide: ${call.headers.authorization}`, token: token }, 401),
      "GET /labels": (call) => json({ errors: { auth: [`${call.headers.authorization} rejeté`] } }, 400),
    });
    const generate = await client.generateLabel(exampleLabelRequest());
    const list = await client.listLabels({ page: 1 }).catch((error: unknown) => error);
    const outputs = [everything(generate), everything(list), ...logLines];
    expect(outputs.join("\n")).toContain("[REDACTED]");
    for (const output of outputs) {
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(token);
      expect(output).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
    }
    expect(generate.status).toBe("rejected");
  });

  it("successful flows log operations and statuses but no credential", async () => {
    const { client, logLines } = setup({
      "POST /labels/generate_label": () => json({ message: "ok", reference: "T", label_url: "u", id: 1, tracking_url: "t" }),
      "GET /labels": () => json([]),
      "GET /carrier_services/services": () => json(["n"]),
    });
    await client.generateLabel(exampleLabelRequest());
    await client.listLabels({ page: 1 });
    await client.carrierServices("DE");
    await client.testConnection();
    const log = logLines.join("\n");
    expect(log).toContain("generate_label");
    expect(log).toContain("200");
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(tokenFor(1));
    expect(log).not.toContain(tokenFor(2));
  });

  it("a lost connection's error carries no secret either", async () => {
    const { client } = setup({ "POST /labels/generate_label": () => Promise.reject(socketClosed()) });
    const result = await client.generateLabel(exampleLabelRequest());
    expect(everything(result)).not.toContain(PASSWORD);
    expect(everything(result)).not.toContain(tokenFor(1));
  });

  it("redact() covers known values, Bearer headers, JWTs and secret-named JSON keys", () => {
    const jwt = tokenFor(7);
    const text = `{"password":"p\\"q","auth_token":"abc","note":"hunter22 and Bearer xyz.123 and ${jwt}"}`;
    const out = redact(text, ["hunter22"]);
    expect(out).not.toContain("hunter22");
    expect(out).not.toContain("xyz.123");
    expect(out).not.toContain(jwt);
    expect(out).not.toContain("abc");
    expect(out).not.toContain('p\\"q');
    expect(redactValue({ Authorization: "Bearer z", nested: [{ password: 1 }], ok: "fine" })).toEqual({
      Authorization: "[REDACTED]",
      nested: [{ password: "[REDACTED]" }],
      ok: "fine",
    });
  });
});
