import { describe, expect, it } from "vitest";
import type { LabelServicePort } from "../labels/purchase.server";
import { exampleLabelRequest } from "./__fixtures__/example-request";
import { json } from "./__fixtures__/fake-fetch";
import { setup } from "./__fixtures__/setup";

describe("the client fits the purchase layer's port", () => {
  it("is assignable to LabelServicePort and its outcomes carry what the purchase layer stores", async () => {
    const { client } = setup({ "POST /labels/generate_label": () => json({ error: "Code postal invalide" }, 422) });
    const port: LabelServicePort = client;
    const outcome = await port.generateLabel(exampleLabelRequest());
    expect(outcome.status).toBe("rejected");
    if (outcome.status === "created") return;
    expect(outcome.error).toMatchObject({ httpStatus: 422, kind: "rejected", body: '{"error":"Code postal invalide"}' });
    expect(outcome.error.message).toContain("Code postal invalide");
  });
});
