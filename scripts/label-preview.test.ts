import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labelRequestSchema } from "../app/label-service/contract";
import { preview } from "./label-preview";

const fixtures = path.resolve(__dirname, "../app/shipping/fixtures");

describe("label:preview", () => {
  it("prints a valid label request for a domestic and a Swiss seed order", () => {
    const domestic = preview(["--order", `${fixtures}/domestic-fr.json`]);
    expect(domestic.code).toBe(0);
    expect(labelRequestSchema.parse(JSON.parse(domestic.stdout)).recipient.country).toBe("FR");
    const swiss = preview(["--order", `${fixtures}/international-ch.json`, "--reference", "20201218-013", "--carrier", "Colissimo", "--service", "COLI"]);
    const request = labelRequestSchema.parse(JSON.parse(swiss.stdout));
    expect(request).toMatchObject({ custom_reference: "20201218-013", carrier_name: "Colissimo", recipient: { country: "CH" } });
    expect(request.cn23_data?.products[0]?.currency_code).toBe("CHF");
  });

  it("prints the problems and exits 2 when something blocks", () => {
    const blocked = preview(["--order", `${fixtures}/blocked-ch-missing-hs-code.json`]);
    expect(blocked.code).toBe(2);
    expect((JSON.parse(blocked.stdout) as { code: string }[]).map((problem) => problem.code)).toContain("hs_code_missing");
  });

  it("explains bad input with exit 1", () => {
    expect(preview([]).stderr).toMatch(/--order/);
    expect(preview(["--order", "/nonexistent.json"]).code).toBe(1);
    expect(preview(["--order", `${fixtures}/domestic-fr.json`, "--carrier", "Dhl"]).stderr).toMatch(/go together/);
  });

  it("exits 2 as a command", () => {
    const run = spawnSync(process.execPath, [path.resolve(__dirname, "../node_modules/tsx/dist/cli.mjs"), "scripts/label-preview.ts", "--order", `${fixtures}/blocked-ch-missing-hs-code.json`], {
      cwd: path.resolve(__dirname, ".."),
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
  });
});
