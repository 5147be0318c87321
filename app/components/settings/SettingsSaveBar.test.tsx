// @vitest-environment happy-dom
/**
 * The shipping settings form's unsaved-changes guard (issue 16 item 10): inside the admin, App Bridge's Save Bar shows
 * once a field changed and its Save submits the form; without App Bridge (the demo) a Polaris banner offers Save and
 * Discard and the form keeps its own Save button.
 */
import { AppProvider } from "@shopify/polaris";
import enPolaris from "@shopify/polaris/locales/en.json";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleContext, MessagesContext } from "../../i18n/translate";
import { messagesFor } from "../../i18n/translate.server";
import { settingsToFields } from "../../settings/shipping-settings-form";
import { defaultShippingSettings } from "../../shipping/settings";
import { ShippingSettingsCard } from "../ShippingSettingsCard";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
const saveBarCalls: string[] = [];
class FakeSaveBar extends HTMLElement {
  show() {
    saveBarCalls.push("show");
  }
  hide() {
    saveBarCalls.push("hide");
  }
}
if (!customElements.get("ui-save-bar")) customElements.define("ui-save-bar", FakeSaveBar);

afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = "";
  delete (window as { shopify?: unknown }).shopify;
  saveBarCalls.length = 0;
});

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 20)));

async function mount() {
  const submitted: string[] = [];
  const fields = { ...settingsToFields(defaultShippingSettings), "sender.city": "Paris" };
  const page = (
    <AppProvider i18n={enPolaris}>
      <LocaleContext.Provider value="en">
        <MessagesContext.Provider value={messagesFor("en")}>
          <ShippingSettingsCard
            fields={fields}
            configured
            services={{ domestic: [], eu: [], world: [] }}
            maxBoxes={1}
          />
        </MessagesContext.Provider>
      </LocaleContext.Provider>
    </AppProvider>
  );
  const router = createMemoryRouter([
    {
      path: "/",
      element: page,
      action: async ({ request }) => {
        submitted.push(String((await request.formData()).get("intent")));
        return null;
      },
    },
  ]);
  const container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  act(() => root!.render(<RouterProvider router={router} future={{ v7_startTransition: true }} />));
  await settle();
  const city = () => document.querySelector<HTMLInputElement>('input[name="sender.city"]')!;
  const type = async (value: string) => {
    const input = city();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
    act(() => {
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await settle();
  };
  const button = (text: string) =>
    [...document.querySelectorAll("button")].find((candidate) => candidate.textContent?.trim() === text);
  return { submitted, city, type, button };
}

describe("the shipping settings' unsaved-changes guard", () => {
  it("without App Bridge (the demo): a banner with Discard once a field changed, one Save button; Discard restores it", async () => {
    const { city, type, button } = await mount();
    expect(document.body.textContent).not.toContain("unsaved changes");
    expect(button("Save shipping settings")).toBeDefined();
    await type("Lyon");
    expect(document.body.textContent).toContain("You have unsaved changes in the shipping settings");
    expect(
      [...document.querySelectorAll("button")].filter(
        (candidate) => candidate.textContent?.trim() === "Save shipping settings",
      ),
    ).toHaveLength(1);
    act(() => button("Discard")!.click());
    await settle();
    expect(city().value).toBe("Paris");
    expect(document.body.textContent).not.toContain("unsaved changes");
  });

  it("inside the admin: App Bridge's Save Bar shows once a field changed, and its Save submits the form", async () => {
    (window as { shopify?: unknown }).shopify = {
      toast: { show: () => undefined },
      saveBar: { show: () => undefined, hide: () => undefined },
    };
    const { submitted, type } = await mount();
    expect(saveBarCalls.at(-1)).toBe("hide");
    await type("Lyon");
    expect(saveBarCalls.at(-1)).toBe("show");
    const bar = document.querySelector("ui-save-bar")!;
    const save = bar.querySelector<HTMLButtonElement>('button[variant="primary"]')!;
    act(() => save.click());
    await settle();
    expect(submitted).toEqual(["saveShipping"]);
    // The card's own Save button is gone: the Save Bar is the form's save.
    expect(
      [...document.querySelectorAll("form button")].some(
        (candidate) => candidate.closest("ui-save-bar") === null && /^Save/.test(candidate.textContent ?? ""),
      ),
    ).toBe(false);
  });
});
