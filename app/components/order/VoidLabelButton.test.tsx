// @vitest-environment happy-dom
/**
 * Void label asks first (decision 0112): the click opens a confirmation that names the order, the tracking number,
 * and the label id and reference to quote to the label service for a refund; "Keep the label" submits nothing, only
 * the dialog's "Void label" submits the form. In French too.
 */
import { AppProvider } from "@shopify/polaris";
import enPolaris from "@shopify/polaris/locales/en.json";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleContext, MessagesContext } from "../../i18n/translate";
import { messagesFor } from "../../i18n/translate.server";
import { VoidLabelButton } from "./VoidLabelButton";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = "";
});

function mount(locale: "en" | "fr") {
  const submits: { intent: string; labelId: string }[] = [];
  const container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <AppProvider i18n={enPolaris}>
        <LocaleContext.Provider value={locale}>
          <MessagesContext.Provider value={messagesFor(locale)}>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                const data = new FormData(event.currentTarget);
                submits.push({ intent: String(data.get("intent")), labelId: String(data.get("labelId")) });
              }}
            >
              <input type="hidden" name="intent" value="voidLabel" />
              <input type="hidden" name="labelId" value="label-1" />
              <VoidLabelButton orderName="#1042" trackingNumber="6A0000000001" serviceLabelId="L-77" reference="20261126-004" disabled={false} loading={false} />
            </form>
          </MessagesContext.Provider>
        </LocaleContext.Provider>
      </AppProvider>,
    ),
  );
  const buttons = (text: string) => [...document.querySelectorAll("button")].filter((candidate) => candidate.textContent?.trim() === text);
  return { submits, buttons };
}

describe("the Void label button", () => {
  it("asks first, naming the tracking number, the label id and the reference; keeping the label submits nothing", () => {
    const { submits, buttons } = mount("en");
    act(() => buttons("Void label")[0]!.click());
    expect(submits).toEqual([]);
    const text = document.body.textContent ?? "";
    expect(text).toContain("Void the label of order #1042?");
    expect(text).toContain("tracking number 6A0000000001 is cancelled");
    expect(text).toContain("quoting label L-77 and reference 20261126-004");
    act(() => buttons("Keep the label")[0]!.click());
    expect(submits).toEqual([]);

    act(() => buttons("Void label")[0]!.click());
    // The page's button and the dialog's action: the dialog's (the last one) submits.
    act(() => buttons("Void label").at(-1)!.click());
    expect(submits).toEqual([{ intent: "voidLabel", labelId: "label-1" }]);
  });

  it("says it in French", () => {
    const { submits, buttons } = mount("fr");
    act(() => buttons("Annuler l'étiquette")[0]!.click());
    const text = document.body.textContent ?? "";
    expect(text).toContain("Annuler l'étiquette de la commande #1042 ?");
    expect(text).toContain("en citant l'étiquette L-77 et la référence 20261126-004");
    act(() => buttons("Garder l'étiquette")[0]!.click());
    expect(submits).toEqual([]);
  });
});
