import { describe, expect, it } from "vitest";
import type { Problem } from "../shipping/problems";
import { groupByCause } from "./preflight.server";
import { blockedReason, bulkReasonText, causeKey, groupText } from "./reasons";

const hsCode = (orderName: string, index: number, country: string): Problem => ({
  code: "hs_code_missing",
  path: `cn23_data.products[${index}].hs_code`,
  orderName,
  severity: "blocking",
  message: { en: `${orderName}: no HS code for ${country}.`, fr: `${orderName} : pas de code SH pour ${country}.` },
  fix: { en: "Add it in Shopify.", fr: "Ajoutez-le dans Shopify." },
});

describe("bulk reasons", () => {
  it("a blocked order's reason is its first blocking problem, in both languages, counting the others", () => {
    const reason = blockedReason([hsCode("#1", 0, "CH"), { ...hsCode("#1", 1, "CH"), severity: "warning" }, hsCode("#1", 2, "CH")]);
    expect(reason.params).toMatchObject({ problem: "hs_code_missing", more: "1" });
    expect(bulkReasonText(reason, "en")).toBe("#1: no HS code for CH. Add it in Shopify. (and 1 more problem(s): open the order to see them)");
    expect(bulkReasonText(reason, "fr")).toMatch(/^#1 : pas de code SH pour CH\. Ajoutez-le dans Shopify\. \(et 1 autre/);
  });

  it("groups blocked orders by cause whatever the line index, the largest group first", () => {
    const blocked = [
      { orderId: "1", orderName: "#1", reasons: [blockedReason([hsCode("#1", 0, "CH")])] },
      { orderId: "2", orderName: "#2", reasons: [{ code: "purchase_in_progress", params: { reference: "r" } }] },
      { orderId: "3", orderName: "#3", reasons: [blockedReason([hsCode("#3", 2, "GB")])] },
    ];
    expect(causeKey(blocked[0]!.reasons[0]!)).toBe(causeKey(blocked[2]!.reasons[0]!));
    const groups = groupByCause(blocked);
    expect(groups.map((group) => [group.orderCount, group.orderNames])).toEqual([
      [2, ["#1", "#3"]],
      [1, ["#2"]],
    ]);
    expect(groupText(groups[0]!, "fr")).toMatch(/^2 commandes : /);
  });

  it("the label flow's reasons and unknown codes still read as sentences", () => {
    expect(bulkReasonText({ code: "shopify_busy", params: { seconds: "3" } }, "en")).toMatch(/3 seconds/);
    expect(bulkReasonText({ code: "from_a_newer_version" }, "fr")).toMatch(/from_a_newer_version/);
  });
});
