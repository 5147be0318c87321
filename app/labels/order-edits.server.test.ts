import { describe, expect, it } from "vitest";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import { formFieldForPath, uniqueProblems } from "./order-edit-fields";
import { checkOrderEdits, contractProblems, effectiveEdits, previewAsEdits, toCommaAmount } from "./order-edits.server";
import { applyOverrides } from "./order-label.server";

const dhlToGermany = exampleLabelRequest();
const colissimoInFrance = exampleLabelRequest({
  carrier_name: "Colissimo",
  carrier_service_name: "DOM",
  recipient: { lastname: "Durand", firstname: "Léa", address_line1: "3 rue Neuve", country: "FR", city: "Lyon", zip: "69001", email: "lea@example.fr" },
});
const usRecipient = exampleLabelRequest({
  recipient: { lastname: "Zhang", firstname: "Wei", address_line1: "1 Market Street", country: "US", city: "San Francisco", zip: "94105", email: "wei@example.com" },
});

function codesByPath(problems: { path: string; code: string }[]) {
  return Object.fromEntries(problems.map((problem) => [problem.path, problem.code]));
}

describe("checkOrderEdits", () => {
  it("refuses a weight of 0, -1, 999999 or a cleared one instead of buying (or refilling 490 g)", () => {
    for (const weight of ["0", "-1", "999999", "1.5", "abc"]) {
      expect(codesByPath(checkOrderEdits(colissimoInFrance, { weight }, "#1001")), weight).toEqual({ weight: "edit_out_of_range" });
    }
    expect(codesByPath(checkOrderEdits(colissimoInFrance, { weight: "" }, "#1001"))).toEqual({ weight: "edit_required" });
    expect(checkOrderEdits(colissimoInFrance, { weight: "490" }, "#1001")).toEqual([]);
  });

  it("uses the carrier's weight range: 30 kg for Colissimo, 70 kg for DHL", () => {
    expect(checkOrderEdits(colissimoInFrance, { weight: "31000" }, "#1")).toHaveLength(1);
    expect(checkOrderEdits(dhlToGermany, { weight: "31000" }, "#1")).toEqual([]);
    const [problem] = checkOrderEdits(colissimoInFrance, { weight: "999999" }, "#1");
    expect(problem!.message.en).toBe('Weight (g) must be a whole number from 10 to 30000 g for Colissimo ("999999" was entered).');
    expect(problem!.message.fr).toContain("Poids (g) doit être un nombre entier de 10 à 30000 g pour Colissimo");
  });

  it("refuses a length of 0 and a cleared dimension", () => {
    expect(codesByPath(checkOrderEdits(dhlToGermany, { length: "0", width: "", height: "300" }, "#1"))).toEqual({
      length: "edit_out_of_range",
      width: "edit_required",
      height: "edit_out_of_range",
    });
  });

  it("refuses a unit price 'abc', names the item and says what to type, in both languages", () => {
    const [problem, ...rest] = checkOrderEdits(dhlToGermany, { products: { "0": { unit_price: "abc" } } }, "#1035");
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ code: "edit_amount_invalid", path: "cn23_data.products[0].unit_price" });
    expect(problem!.message.en).toBe('Item 1 ("Book"): Unit price is not a valid amount ("abc" was entered).');
    expect(problem!.fix.fr).toContain("Saisissez un montant comme 12,50");
    expect(JSON.stringify([problem!.message, problem!.fix])).not.toMatch(/cn23_data|Too small|expected/);
    expect(checkOrderEdits(dhlToGermany, { products: { "0": { unit_price: "0" } } }, "#1")).toHaveLength(1);
    expect(checkOrderEdits(dhlToGermany, { products: { "0": { unit_price: "12.5", weight: "250", country_code: "cn", hs_code: "0902.10" } } }, "#1")).toEqual([]);
  });

  it("refuses an empty last name, a US postcode '!!!', an unknown origin and a bad e-mail", () => {
    expect(
      codesByPath(
        checkOrderEdits(usRecipient, { "recipient.lastname": " ", "recipient.zip": "!!!", "recipient.email": "wei@", products: { "1": { country_code: "ZZ" } } }, "#1037"),
      ),
    ).toEqual({
      "recipient.lastname": "edit_required",
      "recipient.zip": "edit_zip_invalid",
      "recipient.email": "edit_email_invalid",
      "cn23_data.products[1].country_code": "edit_origin_invalid",
    });
    expect(codesByPath(checkOrderEdits(usRecipient, { "recipient.zip": "" }, "#1"))).toEqual({ "recipient.zip": "edit_required" });
  });

  it("caps every text field at a length carriers accept (a 1 MB address line, a 200 KB description)", () => {
    const problems = checkOrderEdits(
      dhlToGermany,
      { "recipient.address_line1": "x".repeat(1024 * 1024), description: "y".repeat(200 * 1024), "recipient.firstname": "z".repeat(30), products: { "0": { description: "w".repeat(65) } } },
      "#1",
    );
    expect(codesByPath(problems)).toEqual({
      "recipient.address_line1": "edit_too_long",
      description: "edit_too_long",
      "recipient.firstname": "edit_too_long",
      "cn23_data.products[0].description": "edit_too_long",
    });
    expect(problems.find((problem) => problem.path === "recipient.address_line1")!.message.en).toBe("Address has 1048576 characters; carriers accept at most 35.");
    expect(checkOrderEdits(dhlToGermany, { "recipient.address_line1": "x".repeat(35), "recipient.firstname": "z".repeat(29) }, "#1")).toEqual([]);
  });

  it("requires the description for DHL (documented mandatory), not for Colissimo", () => {
    expect(codesByPath(checkOrderEdits(dhlToGermany, { description: "" }, "#1"))).toEqual({ description: "edit_required" });
    expect(checkOrderEdits(colissimoInFrance, { description: "" }, "#1")).toEqual([]);
  });

  it("checks the mapped values a purchase would use even when the form did not send them", () => {
    expect(checkOrderEdits(dhlToGermany, effectiveEdits(dhlToGermany, {}), "#1")).toEqual([]);
    const longStreet = exampleLabelRequest({ recipient: { ...dhlToGermany.recipient, address_line1: "Residenz am Schlossgarten, Haus 4, Aufgang C, 3. OG" } });
    expect(codesByPath(checkOrderEdits(longStreet, effectiveEdits(longStreet, {}), "#1"))).toEqual({ "recipient.address_line1": "edit_too_long" });
    expect(checkOrderEdits(longStreet, effectiveEdits(longStreet, { "recipient.address_line1": "Schlossgarten 4" }), "#1")).toEqual([]);
    const weightless = exampleLabelRequest({ weight: "0" });
    expect(codesByPath(checkOrderEdits(weightless, previewAsEdits(weightless), "#1"))).toEqual({ weight: "edit_out_of_range" });
    // Without customs the CN23 lines are informative: a mapped 0 g item does not block a domestic label.
    const weightlessItem = exampleLabelRequest({ cn23_data: { ...dhlToGermany.cn23_data!, products: [{ ...dhlToGermany.cn23_data!.products[0]!, weight: "0" }] } });
    expect(checkOrderEdits(weightlessItem, previewAsEdits(weightlessItem, { customsRequired: false }), "#1")).toEqual([]);
    expect(checkOrderEdits(weightlessItem, previewAsEdits(weightlessItem), "#1")).toHaveLength(1);
  });
});

describe("applying the edits", () => {
  it("writes amounts the way the service reads them and phones in international form", () => {
    const edited = applyOverrides(dhlToGermany, { "cn23.shipping_price": "7.5", "recipient.phone1": "030 1234567", products: { "0": { unit_price: "12" } } });
    expect(edited.cn23_data?.shipping_price).toBe("7,50");
    expect(edited.cn23_data?.products[0]?.unit_price).toBe("12,00");
    expect(edited.recipient.phone1).toBe("+49301234567");
    expect(contractProblems(edited, "#1")).toEqual([]);
    expect(toCommaAmount("abc")).toBeUndefined();
  });

  it("names a field the contract refuses in the merchant's words, never by schema path", () => {
    const [problem] = contractProblems({ ...dhlToGermany, recipient: { ...dhlToGermany.recipient, email: "nope" } }, "#1");
    expect(problem).toMatchObject({ path: "recipient.email", message: { en: "E-mail is not in a form the label service accepts." } });
  });
});

describe("the page's fields", () => {
  it("maps problem paths to form fields, and lists a problem once", () => {
    expect(formFieldForPath("cn23_data.products[2].unit_price")).toBe("cn23.products.2.unit_price");
    expect(formFieldForPath("recipient.zip")).toBe("recipient.zip");
    expect(formFieldForPath("fulfillmentOrders")).toBeUndefined();
    const one = { code: "hs_code_missing", path: "cn23_data.products[0].hs_code" };
    expect(uniqueProblems([one, { ...one }, { ...one, path: "cn23_data.products[1].hs_code" }])).toHaveLength(2);
  });
});
