import { describe, expect, it } from "vitest";
import { createCarrierServicesCache } from "./carrier-services-cache.server";

const services = [{ carrier: "Dhl", name: "P", label: "DHL Express Worldwide" }];

describe("the carrier-service lookup cache", () => {
  it("asks the service once per shop, environment and country while fresh, and shares a lookup under way", async () => {
    let calls = 0;
    let clock = 0;
    const cache = createCarrierServicesCache({ ttlMs: 1_000, now: () => clock });
    const lookup = async () => {
      calls += 1;
      return services;
    };
    expect(cache.peek("a", "staging", "CH")).toBeUndefined();
    const [first, second] = await Promise.all([cache.get("a", "staging", "CH", lookup), cache.get("a", "staging", "ch", lookup)]);
    expect(first).toBe(second);
    expect(calls).toBe(1);
    expect(cache.peek("a", "staging", "CH")).toEqual(services);
    await cache.get("a", "production", "CH", lookup);
    await cache.get("b", "staging", "CH", lookup);
    expect(calls).toBe(3);
    clock = 1_001;
    expect(cache.peek("a", "staging", "CH")).toBeUndefined();
    await cache.get("a", "staging", "CH", lookup);
    expect(calls).toBe(4);
  });

  it("keeps no failure: the next page asks again", async () => {
    const cache = createCarrierServicesCache();
    await expect(cache.get("a", "staging", "US", async () => Promise.reject(new Error("503")))).rejects.toThrow("503");
    expect(cache.peek("a", "staging", "US")).toBeUndefined();
    expect(await cache.get("a", "staging", "US", async () => services)).toEqual(services);
  });
});
