import { describe, expect, it } from "vitest";
import { labelsToBuy, locationOfFulfillmentOrder, orderLocations, senderFor, settingsForLocation, shipsFromSeveralLocations, type LocatedFulfillmentOrder } from "./location-sender";
import { defaultShippingSettings, shippingSettingsSchema } from "./settings";

const PARIS = "gid://shopify/Location/1";
const LYON = "gid://shopify/Location/2";

function fo(id: string, location: string | null, options: { remaining?: number; status?: string; method?: string; name?: string } = {}): LocatedFulfillmentOrder {
  return {
    id,
    status: options.status ?? "OPEN",
    deliveryMethod: { methodType: options.method ?? "SHIPPING" },
    supportedActions: options.status === "CLOSED" ? [] : [{ action: "CREATE_FULFILLMENT" }],
    lineItems: { nodes: [{ remainingQuantity: options.remaining ?? 1 }] },
    assignedLocation: { name: options.name ?? (location === LYON ? "Lyon" : "Paris"), location: location ? { id: location } : null },
  };
}

const order = (...nodes: LocatedFulfillmentOrder[]) => ({ fulfillmentOrders: { nodes } });

const lyonSender = { ...defaultShippingSettings.sender, city: "Lyon", zip: "69003", address1: "15 rue de la Villette" };
const settings = shippingSettingsSchema.parse({ ...defaultShippingSettings, locationSenders: [{ locationId: LYON, locationName: "Lyon", sender: lyonSender }] });

describe("orderLocations", () => {
  it("groups the parcel fulfillment orders by location, in order, and says which are still to ship", () => {
    const locations = orderLocations(order(fo("A", PARIS), fo("B", LYON), fo("C", PARIS, { status: "CLOSED", remaining: 0 })));
    expect(locations).toEqual([
      { locationId: PARIS, locationName: "Paris", fulfillmentOrderIds: ["A", "C"], openFulfillmentOrderIds: ["A"] },
      { locationId: LYON, locationName: "Lyon", fulfillmentOrderIds: ["B"], openFulfillmentOrderIds: ["B"] },
    ]);
  });

  it("leaves out what never ships as a parcel: local delivery, pickup in store, digital, cancelled", () => {
    const locations = orderLocations(order(fo("A", PARIS), fo("B", LYON, { method: "LOCAL" }), fo("C", LYON, { method: "NONE" }), fo("D", LYON, { status: "CANCELLED" })));
    expect(locations.map((location) => location.locationId)).toEqual([PARIS]);
  });
});

describe("shipsFromSeveralLocations", () => {
  it("is true for parcels at two locations, and stays true once one of them has shipped", () => {
    expect(shipsFromSeveralLocations(order(fo("A", PARIS), fo("B", LYON)))).toBe(true);
    expect(shipsFromSeveralLocations(order(fo("A", PARIS, { status: "CLOSED", remaining: 0 }), fo("B", LYON)))).toBe(true);
  });

  it("is false for one location, even with two fulfillment orders there, and for a location Shopify no longer names", () => {
    expect(shipsFromSeveralLocations(order(fo("A", PARIS), fo("B", PARIS)))).toBe(false);
    expect(shipsFromSeveralLocations(order(fo("A", PARIS), fo("B", null, { name: "Ancien dépôt" })))).toBe(false);
  });
});

describe("senderFor", () => {
  it("picks the location's own sender when Settings hold one", () => {
    expect(senderFor(settings, LYON)).toEqual({ sender: lyonSender, source: { kind: "location", locationId: LYON, locationName: "Lyon" } });
  });

  it("falls back to the shop's sender for a location without one, or no location", () => {
    expect(senderFor(settings, PARIS)).toEqual({ sender: settings.sender, source: { kind: "shop" } });
    expect(senderFor(settings, null).sender).toBe(settings.sender);
  });

  it("maps a parcel with the location's sender and changes nothing else", () => {
    const located = settingsForLocation(settings, LYON);
    expect(located.sender.city).toBe("Lyon");
    expect({ ...located, sender: settings.sender }).toEqual(settings);
    expect(settingsForLocation(settings, PARIS)).toBe(settings);
  });

  it("finds a fulfillment order's location", () => {
    const read = order(fo("A", PARIS), fo("B", LYON));
    expect(locationOfFulfillmentOrder(read, "B")).toBe(LYON);
    expect(locationOfFulfillmentOrder(read, "Z")).toBeNull();
    expect(locationOfFulfillmentOrder(read, undefined)).toBeNull();
  });
});

describe("the settings schema", () => {
  it("keeps one sender per location and starts with none", () => {
    expect(shippingSettingsSchema.parse({ ...defaultShippingSettings, locationSenders: undefined }).locationSenders).toEqual([]);
    const twice = { ...defaultShippingSettings, locationSenders: [settings.locationSenders[0], settings.locationSenders[0]] };
    expect(shippingSettingsSchema.safeParse(twice).success).toBe(false);
    expect(shippingSettingsSchema.safeParse({ ...settings, locationSenders: [{ ...settings.locationSenders[0], locationId: "Lyon" }] }).success).toBe(false);
  });
});

describe("labelsToBuy (what a production bulk job states before it is confirmed)", () => {
  it("counts one label per location with something left to ship (none once all have shipped), and one for any other order", () => {
    expect(labelsToBuy(order(fo("A", PARIS), fo("B", LYON)))).toBe(2);
    expect(labelsToBuy(order(fo("A", PARIS, { status: "CLOSED", remaining: 0 }), fo("B", LYON)))).toBe(1);
    expect(labelsToBuy(order(fo("A", PARIS), fo("B", PARIS)))).toBe(1);
    expect(labelsToBuy(order(fo("A", PARIS, { status: "CLOSED", remaining: 0 }), fo("B", LYON, { status: "CLOSED", remaining: 0 })))).toBe(0);
  });
});
