/**
 * The settings form highlights each field the last save refused (Polaris `error` on that field), in the merchant's
 * language, naming the field. Rendered on the server, as Remix renders the page after the action.
 */
import { AppProvider } from "@shopify/polaris";
import enPolaris from "@shopify/polaris/locales/en.json";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { LocaleContext, MessagesContext } from "../i18n/translate";
import { messagesFor } from "../i18n/translate.server";
import { parseShippingSettingsFields, settingsToFields } from "../settings/shipping-settings-form";
import { defaultShippingSettings } from "../shipping/settings";
import { ShippingSettingsCard } from "./ShippingSettingsCard";

function render(locale: "en" | "fr", changes: Record<string, string>): string {
  const fields = { ...settingsToFields(defaultShippingSettings), ...changes };
  const parsed = parseShippingSettingsFields(fields);
  if (parsed.ok) throw new Error("expected the save to be refused");
  const page = (
    <AppProvider i18n={enPolaris}>
      <MessagesContext.Provider value={messagesFor(locale)}>
      <LocaleContext.Provider value={locale}>
        <ShippingSettingsCard fields={fields} configured fieldErrors={parsed.fieldErrors} services={{ domestic: [], eu: [], world: [] }} maxBoxes={2} />
      </LocaleContext.Provider>
      </MessagesContext.Provider>
    </AppProvider>
  );
  const router = createMemoryRouter([{ path: "/", element: page }]);
  return renderToString(<RouterProvider router={router} />);
}

/** The error text Polaris shows for the input named `name` (its InlineError is tied by aria-describedby). */
function errorOf(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*>`).exec(html)?.[0];
  if (!input || !/aria-invalid="true"/.test(input)) return undefined;
  const errorId = /aria-describedby="([^"]*Error)"/.exec(input)?.[1];
  if (!errorId) return undefined;
  const block = new RegExp(`id="${errorId}"[^>]*>(.*?)</div></div>`).exec(html)?.[1] ?? "";
  return block.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
}

describe("the settings form after a refused save", () => {
  it("marks the postcode, country and phone fields invalid, each with its own sentence", () => {
    const html = render("en", { "sender.zip": "7501", "sender.phone": "abc" });
    expect(errorOf(html, "sender.zip")).toContain('Postcode: "7501" is not a postcode of France');
    expect(errorOf(html, "sender.phone")).toContain('Phone: "abc" is not a valid phone number for France');
    expect(errorOf(html, "sender.city")).toBeUndefined();
  });

  it("in French, for a country code that does not exist", () => {
    const html = render("fr", { "sender.countryCode": "ZZ" });
    expect(errorOf(html, "sender.countryCode")).toContain("Code pays (FR) : « ZZ » n'est pas un code pays");
  });
});
