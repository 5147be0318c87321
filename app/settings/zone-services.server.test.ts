import { describe, expect, it } from "vitest";
import { createCarrierServicesCache } from "../labels/carrier-services-cache.server";
import { zoneServices } from "./zone-services.server";

describe("the settings' services per zone", () => {
  it("asks one destination per zone, through the cache: a second page load asks the service nothing", async () => {
    const asked: string[] = [];
    const cache = createCarrierServicesCache();
    const lookup = async (country: string) => {
      asked.push(country);
      return [{ carrier: "Dhl", name: country === "FR" ? "n" : "P", label: `DHL ${country}` }];
    };
    const first = await zoneServices("s.myshopify.com", "staging", "FR", { lookup, cache });
    expect(first).toEqual({
      domestic: [{ label: "Dhl · DHL FR", value: "Dhl|n" }],
      eu: [{ label: "Dhl · DHL DE", value: "Dhl|P" }],
      world: [{ label: "Dhl · DHL US", value: "Dhl|P" }],
    });
    expect(asked.sort()).toEqual(["DE", "FR", "US"]);
    await zoneServices("s.myshopify.com", "staging", "FR", { lookup, cache });
    expect(asked).toHaveLength(3);
  });

  it("is a promise the page need not wait for, and a zone the service could not answer lists nothing", async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const cache = createCarrierServicesCache();
    const pending = zoneServices("s.myshopify.com", "staging", "DE", {
      cache,
      lookup: async (country) => {
        await slow;
        if (country === "US") throw new Error("503");
        return [{ carrier: "Colissimo", name: "DOM", label: "Colissimo" }];
      },
    });
    const state = await Promise.race([pending.then(() => "resolved"), Promise.resolve("pending")]);
    expect(state).toBe("pending");
    release();
    expect((await pending).world).toEqual([]);
    expect((await pending).eu).toHaveLength(1);
  });
});
