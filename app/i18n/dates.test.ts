import { describe, expect, it } from "vitest";
import { mockAdmin } from "../../test/helpers/mock-admin";
import { formatDate, formatDateTime, nextDay, startOfDayIn } from "./dates";
import { forgetShopTimeZone, shopTimeZone } from "./dates.server";

const paris = { locale: "fr", timeZone: "Europe/Paris" } as const;

describe("formatDate and formatDateTime", () => {
  it("show the shop's calendar day, not the server's or the browser's: 23:30 UTC on 31 December is 1 January in Paris", () => {
    expect(formatDate("2026-12-31T23:30:00Z", paris)).toBe("1 janv. 2027");
    expect(formatDate("2026-12-31T23:30:00Z", { locale: "en", timeZone: "America/New_York" })).toBe("Dec 31, 2026");
    expect(formatDateTime("2026-11-05T17:57:08Z", paris)).toBe("5 nov. 2026, 18:57");
    expect(formatDateTime("2026-11-05T17:57:08Z", { locale: "en", timeZone: "Europe/Paris" })).toMatch(/^Nov 5, 2026, 6:57\sPM$/);
  });

  it("fall back to UTC for a time zone the runtime does not know, and show an unreadable date as a dash", () => {
    expect(formatDate("2026-12-31T23:30:00Z", { locale: "en", timeZone: "Mars/Olympus" })).toBe("Dec 31, 2026");
    expect(formatDate("not a date", paris)).toBe("—");
  });
});

describe("startOfDayIn", () => {
  it("gives the instant a shop's day starts, across daylight saving changes", () => {
    expect(startOfDayIn("2026-01-15", "Europe/Paris").toISOString()).toBe("2026-01-14T23:00:00.000Z");
    expect(startOfDayIn("2026-07-15", "Europe/Paris").toISOString()).toBe("2026-07-14T22:00:00.000Z");
    expect(startOfDayIn("2026-03-29", "Europe/Paris").toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(startOfDayIn("2026-10-25", "Europe/Paris").toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(startOfDayIn("2026-07-15", "America/Los_Angeles").toISOString()).toBe("2026-07-15T07:00:00.000Z");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});

describe("shopTimeZone", () => {
  it("reads the shop's ianaTimezone once per shop and keeps it for an hour", async () => {
    forgetShopTimeZone();
    const admin = mockAdmin({ ShopTimeZone: () => ({ data: { shop: { ianaTimezone: "Europe/Paris" } } }) });
    expect(await shopTimeZone(admin, "a.myshopify.com", 0)).toBe("Europe/Paris");
    expect(await shopTimeZone(admin, "a.myshopify.com", 59 * 60 * 1000)).toBe("Europe/Paris");
    expect(admin.calls).toHaveLength(1);
    await shopTimeZone(admin, "b.myshopify.com", 0);
    await shopTimeZone(admin, "a.myshopify.com", 61 * 60 * 1000);
    expect(admin.calls).toHaveLength(3);
  });
});
