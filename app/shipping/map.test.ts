import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { labelRequestSchema } from "../label-service/contract";
import { customsRequired, customsTerritory, destinationZone } from "./customs";
import { CUSTOMS_CASES, PARIS } from "./customs-cases";
import { buildShipmentDraft, describeContents, mapOrderToLabelRequest, splitName } from "./map";
import { divideHalfUp, formatComma, toCents } from "./money";
import { toE164 } from "./phone";
import { defaultShippingSettings, shippingSettingsSchema, type ShippingSettings } from "./settings";
import { testOrder, type TestLine } from "./test-orders";
import { toGrams } from "./units";

const settings = defaultShippingSettings;
const map = (order: ReturnType<typeof testOrder>, overrides: Partial<ShippingSettings> = {}, extra: { boxName?: string; carrier?: { carrierName: string; serviceName: string } } = {}) =>
  mapOrderToLabelRequest({ order, settings: { ...settings, ...overrides }, customReference: "20261122-001", ...extra });
const codes = (result: { problems: { code: string; severity: string }[] }) => result.problems.map((problem) => `${problem.severity}:${problem.code}`);

describe("the public guide's example", () => {
  it("is rebuilt from an equivalent order", () => {
    const order = testOrder({
      country: "FR",
      zip: "69006",
      shipping: "10.26",
      lines: [
        { title: "Book", quantity: 1, total: "59.90", weight: { value: 1, unit: "KILOGRAMS" }, origin: "FR" },
        { title: "Book", quantity: 1, total: "13.95", weight: { value: 1000, unit: "GRAMS" }, origin: "FR" },
      ],
    });
    const guideSettings = shippingSettingsSchema.parse({
      ...settings,
      sender: { ...settings.sender, phone: "+33612345678" },
      boxes: [{ name: "Guide box", lengthCm: 22, widthCm: 44, heightCm: 26, packagingWeightGrams: 1000, isDefault: true }],
      cn23: { category: "3" },
      descriptionMaxLength: 35,
    });
    const { request, problems } = mapOrderToLabelRequest({
      order,
      settings: guideSettings,
      customReference: "20201218-013",
      carrier: { carrierName: "Dhl", serviceName: "n" },
    });
    expect(problems).toEqual([]);
    expect(request).toMatchObject({
      weight: "3000",
      width: "44",
      height: "26",
      length: "22",
      carrier_name: "Dhl",
      carrier_service_name: "n",
      custom_reference: "20201218-013",
      cn23_data: {
        category: "3",
        shipping_price: "10,26",
        products: [
          { unit_price: "59,90", quantity: 1, description: "Book", weight: "1000", country_code: "FR", currency_code: "EUR" },
          { unit_price: "13,95", quantity: 1, description: "Book", weight: "1000", country_code: "FR", currency_code: "EUR" },
        ],
      },
      sender: { phone1: "+33612345678", labelType: "PDF_A4_300dpi", address_line2: "" },
    });
  });
});

describe("money, units, phones", () => {
  it.each([
    ["59.9", 5990n],
    ["13.95", 1395n],
    ["0", 0n],
    ["10.255", 1026n],
    ["10.254", 1025n],
    ["abc", undefined],
    ["-1.00", undefined],
  ])("toCents(%s)", (input, cents) => expect(toCents(input)).toBe(cents));

  it("divides a line total per unit, half up, and writes commas", () => {
    expect(formatComma(divideHalfUp(1000n, 3))).toBe("3,33");
    expect(formatComma(divideHalfUp(5n, 2))).toBe("0,03");
    expect(formatComma(divideHalfUp(11980n, 2))).toBe("59,90");
    expect(formatComma(0n)).toBe("0,00");
  });

  it.each([
    [500, "GRAMS", 1, 500],
    [1.2, "KILOGRAMS", 2, 2400],
    [16, "OUNCES", 1, 454],
    [1, "POUNDS", 3, 1361],
    [1, "STONES", 1, undefined],
  ])("toGrams(%s %s x%s) = %s", (value, unit, quantity, grams) => expect(toGrams(value, unit, quantity)).toBe(grams));

  it("normalises phones to E.164 for the destination", () => {
    expect(toE164("06 12 34 56 78", "FR")).toBe("+33612345678");
    expect(toE164("079 123 45 67", "CH")).toBe("+41791234567");
    expect(toE164("+44 20 7946 0958", "FR")).toBe("+442079460958");
    expect(toE164("12", "FR")).toBeUndefined();
  });

  it("splits names and summarises contents", () => {
    expect(splitName("Jean-Pierre de la Tour")).toEqual({ firstname: "Jean-Pierre de la", lastname: "Tour" });
    expect(splitName("Madonna")).toEqual({ firstname: "", lastname: "Madonna" });
    expect(describeContents([{ title: "Green tea", quantity: 2 }, { title: "Ceramic mug with a long name", quantity: 1 }], 25)).toBe("2x Green tea, 1x Ceramic…");
  });
});

describe("recipient rules", () => {
  it("sends address line 2, phone and company when present", () => {
    const { request } = map(testOrder({ address: { address2: "Bâtiment B", phone: "06 12 34 56 78", company: "ACME SARL" } }));
    expect(request?.recipient).toMatchObject({ address_line2: "Bâtiment B", phone1: "+33612345678", company_name: "ACME SARL" });
  });

  it("folds line 2 into line 1 when the shop asks, keeping the text", () => {
    const { request } = map(testOrder({ address: { address2: "Bât. B" } }), { foldAddressLine2: true });
    expect(request?.recipient.address_line1).toBe("5 avenue Foch, Bât. B");
    expect(request?.recipient.address_line2).toBeUndefined();
  });

  it("splits the name when first/last are missing, and uses the company when there is no person", () => {
    expect(map(testOrder({ address: { firstName: null, lastName: null, name: "Anna Karenina" } })).request?.recipient).toMatchObject({ firstname: "Anna", lastname: "Karenina" });
    expect(map(testOrder({ address: { firstName: null, lastName: null, name: null, company: "ACME GmbH" } })).request?.recipient).toMatchObject({ firstname: "", lastname: "ACME GmbH" });
  });

  it("trims zips and writes British ones in capitals", () => {
    const { request } = map(testOrder({ country: "GB", zip: " sw1a  1aa ", lines: [{ title: "Tea", quantity: 1, total: "10.00", hsCode: "090210", origin: "FR" }] }));
    expect(request?.recipient.zip).toBe("SW1A 1AA");
  });

  it("warns about an unreadable phone and does not send it", () => {
    const result = map(testOrder({ address: { phone: "123" } }));
    expect(codes(result)).toContain("warning:recipient_phone_invalid");
    expect(result.request?.recipient.phone1).toBeUndefined();
  });

  it("blocks with a named fix when the e-mail or address is missing", () => {
    expect(codes(map(testOrder({ email: null })))).toContain("blocking:email_missing");
    expect(codes(map(testOrder({ address: null })))).toContain("blocking:no_shipping_address");
    const noStreet = map(testOrder({ address: { address1: "" } }));
    expect(noStreet.request).toBeUndefined();
    expect(noStreet.problems[0]?.fix.en).toMatch(/Shopify/);
    expect(noStreet.problems[0]?.message.fr).toMatch(/rue/);
  });
});

describe("parcel rules", () => {
  it("sums item weights in grams over what remains, plus the box's packaging", () => {
    const order = testOrder({
      lines: [
        { title: "Tea", quantity: 3, remaining: 2, total: "30.00", weight: { value: 0.25, unit: "KILOGRAMS" } },
        { title: "Mug", quantity: 1, total: "12.00", weight: { value: 8, unit: "OUNCES" } },
      ],
    });
    expect(map(order).request?.weight).toBe(String(500 + 227 + 150));
  });

  it("zero weight blocks, unless the shop set a default weight", () => {
    const order = testOrder({ lines: [{ title: "Card", quantity: 1, total: "5.00", weight: { value: 0, unit: "GRAMS" } }] });
    expect(codes(map(order))).toContain("blocking:weight_zero");
    const defaulted = map(order, { defaultWeightGrams: 400 });
    expect(defaulted.request?.weight).toBe("550");
    expect(codes(defaulted)).toContain("warning:weight_defaulted");
  });

  it("takes dimensions from the chosen box", () => {
    const boxes = [...settings.boxes, { name: "Big", lengthCm: 60, widthCm: 40, heightCm: 40, packagingWeightGrams: 600, isDefault: false }];
    expect(map(testOrder({}), { boxes }, { boxName: "Big" }).request).toMatchObject({ length: "60", width: "40", height: "40", weight: "1100" });
  });

  it("leaves out gift cards and items that need no shipping", () => {
    const { request } = map(testOrder({
      lines: [
        { title: "Book", quantity: 1, total: "20.00" },
        { title: "Gift card", quantity: 1, total: "50.00", giftCard: true },
        { title: "E-book", quantity: 1, total: "9.00", requiresShipping: false },
      ],
    }));
    expect(request?.cn23_data?.products.map((product) => product.description)).toEqual(["Book"]);
  });

  it("blocks a cancelled order and an order with nothing left to ship", () => {
    expect(codes(map(testOrder({ cancelled: true })))).toContain("blocking:order_cancelled");
    expect(codes(map(testOrder({ lines: [{ title: "Book", quantity: 1, total: "20.00", remaining: 0 }] })))).toContain("blocking:nothing_to_ship");
  });

  it("trims the English description to the configured length", () => {
    const order = testOrder({ lines: [{ title: "A very long product title indeed", quantity: 2, total: "20.00" }] });
    expect(map(order, { descriptionMaxLength: 20 }).request?.description?.length).toBeLessThanOrEqual(20);
  });
});

describe("CN23 rules", () => {
  const swiss = (lines: TestLine[]) => testOrder({ country: "CH", zip: "1204", currency: "CHF", shipping: "12.5", lines });

  it("uses the presentment currency, per-unit prices from the line total over current quantity", () => {
    const { request } = map(swiss([{ title: "Tea", quantity: 3, currentQuantity: 2, total: "21.01", hsCode: "0902.10", origin: "CN" }]));
    expect(request?.cn23_data).toEqual({
      category: "3",
      shipping_price: "12,50",
      products: [{ unit_price: "10,51", quantity: 2, description: "Tea", weight: "500", country_code: "CN", currency_code: "CHF" }],
    });
  });

  it("sends the HS code only when the shop enables it", () => {
    const lines = [{ title: "Tea", quantity: 1, total: "10.00", hsCode: "090210", origin: "CN" }];
    expect(map(swiss(lines)).request?.cn23_data?.products[0]?.hs_code).toBeUndefined();
    expect(map(swiss(lines), { includeHsCode: true }).request?.cn23_data?.products[0]?.hs_code).toBe("090210");
  });

  it("blocks a customs shipment whose item lacks an HS code or an origin, naming the product and the fix", () => {
    const result = map(swiss([{ title: "Ceramic bowl", quantity: 1, total: "30.00", hsCode: null, origin: null }]), { cn23: { category: "3" } });
    expect(codes(result)).toEqual(["blocking:hs_code_missing", "blocking:origin_missing"]);
    expect(result.problems[0]?.message.en).toContain("Ceramic bowl");
    expect(result.problems[0]?.fix.en).toContain("Customs information");
    expect(result.problems[1]?.fix.fr).toContain("Informations douanières");
  });

  it("falls back to the shop's origin setting, and blocks without one", () => {
    const bowl = swiss([{ title: "Bowl", quantity: 1, total: "30.00", hsCode: "691200", origin: null }]);
    expect(map(bowl, { cn23: { category: "3", fallbackOriginCountry: "FR" } }).request?.cn23_data?.products[0]?.country_code).toBe("FR");
    expect(codes(map(bowl))).toContain("blocking:origin_missing");
  });

  it("does not block inside the EU customs territory", () => {
    const result = map(testOrder({ country: "DE", zip: "10115", lines: [{ title: "Bowl", quantity: 1, total: "30.00", hsCode: null, origin: null }] }));
    expect(codes(result).filter((code) => code.startsWith("blocking"))).toEqual([]);
  });
});

describe("customs territory (country and postcode)", () => {
  it.each(CUSTOMS_CASES)("Paris -> %s %s needs customs: %s (%s)", (country, zip, expected) => {
    expect(customsRequired(PARIS, { country, zip })).toBe(expected);
  });

  it("compares territories, not just EU membership", () => {
    expect(customsRequired({ country: "FR", zip: "97400" }, { country: "RE", zip: "97410" })).toBe(false);
    expect(customsRequired({ country: "FR", zip: "97400" }, { country: "GP", zip: "97110" })).toBe(true);
    expect(customsTerritory({ country: "es", zip: "35 001" })).toBe("IC");
  });

  it("picks the carrier zone", () => {
    expect(destinationZone({ country: "FR" }, { country: "FR", zip: "69006" })).toBe("domestic");
    expect(destinationZone({ country: "FR" }, { country: "DE", zip: "10115" })).toBe("eu");
    expect(destinationZone({ country: "FR" }, { country: "CH", zip: "1204" })).toBe("world");
    expect(destinationZone({ country: "FR" }, { country: "FR", zip: "97400" })).toBe("world");
  });
});

describe("properties (1,000 generated orders)", () => {
  const countries = ["FR", "DE", "BE", "ES", "IT", "NL", "CH", "GB", "US", "CA", "NO", "JP", "RE", "GP", "MC", "XX", ""];
  const units = ["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS", "BOGUS"];
  const line = fc.record({
    title: fc.string({ maxLength: 60 }),
    quantity: fc.integer({ min: 0, max: 20 }),
    total: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)), fc.constantFrom("", "abc", "1e3", "12.3456")),
    currentQuantity: fc.integer({ min: 0, max: 20 }),
    remaining: fc.integer({ min: 0, max: 20 }),
    weight: fc.option(fc.record({ value: fc.double({ min: -5, max: 50_000, noNaN: true }), unit: fc.constantFrom(...units) }), { nil: null }),
    hsCode: fc.option(fc.stringMatching(/^[0-9.]{0,14}$/), { nil: null }),
    origin: fc.option(fc.constantFrom("FR", "CN", "IT", "x", ""), { nil: null }),
    giftCard: fc.boolean(),
    requiresShipping: fc.boolean(),
  });
  const order = fc.record({
    country: fc.constantFrom(...countries),
    zip: fc.string({ maxLength: 12 }),
    currency: fc.constantFrom("EUR", "USD", "GBP", "CHF", "JPY"),
    shipping: fc.oneof(fc.integer({ min: 0, max: 100_000 }).map((cents) => (cents / 100).toFixed(2)), fc.constant("x")),
    lines: fc.array(line, { maxLength: 6 }),
    email: fc.option(fc.emailAddress(), { nil: null }),
    address: fc.record({
      firstName: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
      lastName: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
      name: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
      company: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
      address1: fc.option(fc.string({ maxLength: 80 }), { nil: null }),
      address2: fc.option(fc.string({ maxLength: 80 }), { nil: null }),
      city: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
      phone: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    }),
    cancelled: fc.boolean(),
  });
  const settingsArbitrary = fc.record({
    foldAddressLine2: fc.boolean(),
    includeHsCode: fc.boolean(),
    defaultWeightGrams: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
  });

  it("never throws; any request passes the client's schema, with integer grams and comma prices", () => {
    fc.assert(
      fc.property(order, settingsArbitrary, (generated, overrides) => {
        const result = map(testOrder(generated), overrides);
        // The final schema check is a safety net: the mapper itself must never build an invalid field.
        expect(codes(result)).not.toContain("blocking:request_field_invalid");
        if (!result.request) {
          expect(result.problems.some((problem) => problem.severity === "blocking")).toBe(true);
          return;
        }
        expect(labelRequestSchema.safeParse(result.request).success).toBe(true);
        expect(result.request.weight).toMatch(/^[0-9]+$/);
        for (const product of result.request.cn23_data?.products ?? []) {
          expect(product.unit_price).toMatch(/^[0-9]+,[0-9]{2}$/);
          expect(product.weight).toMatch(/^[0-9]+$/);
        }
        expect(result.request.cn23_data?.shipping_price ?? "0,00").toMatch(/^[0-9]+,[0-9]{2}$/);
      }),
      { numRuns: 1000 },
    );
  });

  it("a well-formed order always yields a request", () => {
    const goodLine = fc.record({
      title: fc.string({ minLength: 1, maxLength: 40 }).filter((title) => title.trim().length > 0),
      quantity: fc.integer({ min: 1, max: 10 }),
      total: fc.integer({ min: 0, max: 1_000_000 }).map((cents) => (cents / 100).toFixed(2)),
      weight: fc.record({ value: fc.integer({ min: 1, max: 5000 }), unit: fc.constant("GRAMS") }),
      hsCode: fc.constant("490199"),
      origin: fc.constantFrom("FR", "CN", "DE"),
    });
    fc.assert(
      fc.property(fc.constantFrom(["FR", "69006"], ["DE", "10115"], ["CH", "1204"], ["GB", "SW1A 1AA"], ["US", "10118"], ["JP", "100-0001"]), fc.array(goodLine, { minLength: 1, maxLength: 5 }), ([country, zip], lines) => {
        const result = map(testOrder({ country, zip, lines }));
        expect(result.problems.filter((problem) => problem.severity === "blocking")).toEqual([]);
        expect(labelRequestSchema.parse(result.request).cn23_data?.products).toHaveLength(lines.length);
      }),
      { numRuns: 1000 },
    );
  });

  it("every problem is bilingual, located and attributed to the order", () => {
    fc.assert(
      fc.property(order, (generated) => {
        for (const problem of buildShipmentDraft({ order: testOrder(generated), settings }).problems) {
          expect(problem.orderName).toBe("#1001");
          expect(problem.path).not.toBe("");
          expect(problem.message.en && problem.message.fr && problem.fix.en && problem.fix.fr).toBeTruthy();
        }
      }),
      { numRuns: 300 },
    );
  });
});
