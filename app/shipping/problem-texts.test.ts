import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import { checkOrderEdits, contractProblems, serviceFieldProblems } from "../labels/order-edits.server";
import { labelProblem } from "../labels/problems";
import { NOTE_CODES, note, readNote, storedNoteOf } from "../labels/notes";
import { problemReason, REASON_TEXTS, reasonText } from "../labels/reasons";
import { mapOrderToLabelRequest } from "./map";
import { PROBLEM_CODES, problem, rebuildProblem, storedProblem } from "./problem-texts";
import type { Problem } from "./problems";
import { serviceNotOfferedProblem } from "./services";
import { defaultShippingSettings } from "./settings";
import { testOrder } from "./test-orders";

/** Every parameter any text uses, so each code's sentences can be produced. */
const SAMPLE = {
  value: "XX-1",
  country: "CH",
  title: "Ceramic bowl",
  length: "52",
  max: "35",
  min: "1",
  unit: "g",
  grams: "500",
  box: "Tiny",
  carrier: "Dhl",
  service: "P",
  titles: "Dhl · Express",
  zone: "world",
  detail: "Too big",
  field: "order.field.city",
};

/** Problems as the app makes them: the mapper on broken orders, the page's edit checks, the labelling unit. */
function madeProblems(): Problem[] {
  const settings = defaultShippingSettings;
  const broken = [
    testOrder({ cancelled: true, email: null, address: { address1: "", city: "", zip: "", firstName: null, lastName: null, name: null, company: null } }),
    testOrder({ country: "CH", zip: "8001", lines: [{ title: "Bowl", quantity: 1, total: "x", weight: null, hsCode: null, origin: "??" }], email: "not-an-email", phone: "12" }),
    testOrder({ address: { zip: "ABC" } }),
    testOrder({ address: { countryCodeV2: "ZZ" } }),
  ];
  const mapped = broken.flatMap((order) => mapOrderToLabelRequest({ order, settings, boxName: "Nope", customReference: "20261123-001" }).problems);
  const request = exampleLabelRequest({ custom_reference: "20261123-001" });
  const edits = checkOrderEdits(
    request,
    {
      weight: "0",
      "recipient.lastname": "",
      "recipient.address_line1": "x".repeat(80),
      "recipient.email": "nope",
      "recipient.zip": "#",
      "recipient.phone1": "12",
      "cn23.category": "other-thing",
      "cn23.shipping_price": "abc",
      products: { "0": { hs_code: "12", country_code: "Z1", unit_price: "-1" } },
    },
    "#1001",
  );
  const contract = contractProblems({ ...request, sender: { ...request.sender, zip: "" }, weight: "" }, "#1001");
  const refused = serviceFieldProblems({ "recipient.zip": ["inconnu"], "cn23_data.products[0].hs_code": ["faux"], carrier_service_name: ["non"] }, "#1001");
  const offered = serviceNotOfferedProblem({ orderName: "#1001", choice: { carrierName: "Dhl", serviceName: "P" }, country: "CH", offered: [{ name: "X", carrier: "Dhl", label: "Express" }], zone: "world" });
  const unit = [labelProblem("order_not_found", { orderName: "7100001035" }), labelProblem("box_unknown", { orderName: "#1001", params: { box: "Nope" } }), labelProblem("no_first_label", { orderName: "#1001" })];
  return [...mapped, ...edits, ...contract, ...refused, offered, ...unit];
}

describe("the problem catalogue", () => {
  it.each(PROBLEM_CODES)("%s has a message and a fix in English and in French", (code) => {
    const made = problem(code, { path: "recipient.address_line1", orderName: "#1001", params: SAMPLE });
    for (const text of [made.message.en, made.message.fr, made.fix.en, made.fix.fr]) {
      expect(text.trim().length).toBeGreaterThan(0);
      expect(text).not.toMatch(/undefined|\[object/);
    }
    expect(made.message.fr).not.toBe(made.message.en);
    expect(made.fix.fr).not.toBe(made.fix.en);
  });

  it("the app's problems come from the catalogue, and rebuilding one from what is stored gives the same problem", () => {
    const problems = madeProblems();
    const codes = new Set(problems.map((found) => found.code));
    // A broad sample of the codes: the mapper's, the edit checks', the service's and the unit's.
    for (const code of ["order_cancelled", "email_invalid", "zip_invalid", "country_unknown", "hs_code_missing", "box_unknown", "edit_too_long", "edit_hs_invalid", "edit_contract_invalid", "service_refused_field", "service_not_offered", "order_not_found"]) {
      expect(codes).toContain(code);
    }
    for (const found of problems) {
      expect(PROBLEM_CODES).toContain(found.code);
      const stored = JSON.parse(JSON.stringify(storedProblem(found))) as ReturnType<typeof storedProblem>;
      expect(rebuildProblem(stored)).toEqual(found);
    }
  });

  it("a blocked order's reason (code + params, as a bulk item stores it) reads as the problem in both languages", () => {
    for (const found of madeProblems()) {
      const reason = JSON.parse(JSON.stringify(problemReason(found))) as ReturnType<typeof problemReason>;
      expect(reasonText(reason, "en")).toBe(`${found.message.en} ${found.fix.en}`);
      expect(reasonText(reason, "fr")).toBe(`${found.message.fr} ${found.fix.fr}`);
    }
  });

  it("an unknown code (a newer version wrote it) is not rebuilt, and reads as a neutral sentence", () => {
    expect(rebuildProblem({ code: "from_the_future", path: "order", orderName: "#1" })).toBeNull();
    expect(reasonText({ code: "from_the_future" }, "fr")).toMatch(/from_the_future/);
  });
});

describe("the note catalogue", () => {
  it.each(NOTE_CODES)("%s reads in English and in French, rebuilt from its code and params", (code) => {
    const made = note(code, { pages: "500", until: "2026-11-23 10:00 UTC", detail: "timeout", label: "L1", order: "#1001", found: "A", reference: "B" });
    expect(made.message.trim().length).toBeGreaterThan(0);
    expect(made.messageFr.trim().length).toBeGreaterThan(0);
    expect(readNote(storedNoteOf(made))).toEqual({ en: made.message, fr: made.messageFr });
    expect(reasonText({ code, params: made.params }, "fr")).toBe(made.messageFr);
  });

  it("the three catalogues never share a code", () => {
    const reasons = Object.keys(REASON_TEXTS);
    expect(reasons.filter((code) => (PROBLEM_CODES as string[]).includes(code) || (NOTE_CODES as string[]).includes(code))).toEqual([]);
    expect(NOTE_CODES.filter((code) => (PROBLEM_CODES as string[]).includes(code))).toEqual([]);
  });
});
