import { describe, expect, it } from "vitest";
import { servicesFor } from "../../emulators/label-sandbox/services";
import { mapOrderToLabelRequest } from "./map";
import type { OfferedService } from "./services";
import { defaultShippingSettings } from "./settings";
import { testOrder } from "./test-orders";

/** The sandbox's carrier-service lookup for a country, as the client parses it. */
const lookup = (country: string): OfferedService[] =>
  servicesFor(country).map((entry) => ({ carrier: entry.carrier_name, name: entry.name, label: entry.label }));

const customsLine = [{ title: "Tea", quantity: 1, total: "10.00", weight: { value: 500, unit: "GRAMS" }, hsCode: "090210", origin: "FR" }];

const map = (country: string, zip: string, carrier?: { carrierName: string; serviceName: string }, offered: OfferedService[] | null = lookup(country)) =>
  mapOrderToLabelRequest({
    order: testOrder({ name: "#1042", country, zip, lines: customsLine }),
    settings: defaultShippingSettings,
    customReference: "20261122-001",
    ...(carrier ? { carrier } : {}),
    ...(offered ? { offeredServices: offered } : {}),
  });

describe("the proposed service must be one the lookup lists for the destination country", () => {
  it.each([
    ["Canary Islands", "ES", "35001"],
    ["Canary Islands", "ES", "38001"],
    ["Büsingen", "DE", "78266"],
    ["Réunion written as FR", "FR", "97400"],
  ])("%s (%s %s): the worldwide default Dhl P is not sold there, so it blocks before purchase and names the valid ones", (_place, country, zip) => {
    const result = map(country, zip);
    expect(result.draft?.carrier).toEqual({ carrierName: "Dhl", serviceName: "P" });
    const problem = result.problems.find((candidate) => candidate.code === "service_not_offered");
    expect(problem).toMatchObject({ severity: "blocking", path: "carrier_service_name", orderName: "#1042" });
    expect(problem?.params).toMatchObject({ order: "#1042", carrier: "Dhl", service: "P", country });
    const valid = lookup(country).map((service) => `${service.carrier}|${service.name}`);
    expect(problem?.params?.offered?.split(",")).toEqual(valid);
    expect(problem?.message.en).toContain("#1042");
    expect(problem?.message.fr).toContain("#1042");
    // The fix names the services by their names, and where to choose.
    expect(problem?.fix.en).toContain(lookup(country)[0]!.label);
    expect(problem?.fix.en).toContain('"Service"');
    expect(problem?.fix.fr).toContain("« Service »");
    expect(problem?.fix.en).toContain("Rest of the world");
    expect(result.request).toBeUndefined();
  });

  it("names the country in the merchant's language", () => {
    const problem = map("ES", "35001").problems.find((candidate) => candidate.code === "service_not_offered");
    expect(problem?.message.en).toContain("Spain (ES)");
    expect(problem?.message.fr).toContain("Espagne (ES)");
  });

  it.each([
    ["ES", "35001", { carrierName: "Dhl", serviceName: "U" }],
    ["DE", "78266", { carrierName: "Colissimo", serviceName: "COLI" }],
    ["FR", "97400", { carrierName: "Colissimo", serviceName: "DOM" }],
  ])("%s %s: a service the lookup lists, chosen on the page, is bought", (country, zip, carrier) => {
    const result = map(country, zip, carrier);
    expect(result.problems.filter((problem) => problem.severity === "blocking")).toEqual([]);
    expect(result.request).toMatchObject({ carrier_name: carrier.carrierName, carrier_service_name: carrier.serviceName });
  });

  it("blocks a service the merchant chose that is not sold to the country, without pointing at Settings", () => {
    const problem = map("CH", "1204", { carrierName: "Dhl", serviceName: "n" }).problems.find((candidate) => candidate.code === "service_not_offered");
    expect(problem?.params).toMatchObject({ carrier: "Dhl", service: "n", country: "CH" });
    expect(problem?.fix.en).not.toContain("Settings");
  });

  it("accepts the defaults where they are sold (Paris -> Lyon, Berlin, Zürich)", () => {
    for (const [country, zip] of [["FR", "69006"], ["DE", "10115"], ["CH", "8001"]] as const) {
      expect(map(country, zip).problems.map((problem) => problem.code)).not.toContain("service_not_offered");
    }
  });

  it("says so plainly when the service sells nothing to the country", () => {
    const problem = map("ES", "35001", undefined, []).problems.find((candidate) => candidate.code === "service_not_offered");
    expect(problem?.fix.en).toMatch(/offers no service to Spain/);
  });

  it("checks nothing when the lookup could not be read (the service still refuses at no charge)", () => {
    expect(map("ES", "35001", undefined, null).problems.map((problem) => problem.code)).not.toContain("service_not_offered");
  });

  it("matches lookup entries that do not name their carrier by service name", () => {
    const result = map("ES", "35001", { carrierName: "Dhl", serviceName: "U" }, [{ name: "U" }]);
    expect(result.problems.map((problem) => problem.code)).not.toContain("service_not_offered");
  });
});
