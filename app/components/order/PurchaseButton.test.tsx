// @vitest-environment happy-dom
/**
 * A charged (production) purchase asks first (issue 16 item 11): the click opens a confirmation naming the order and
 * the one charged label; only its "Buy" submits the form. A free (staging) label is bought on click, as before.
 */
import { AppProvider } from "@shopify/polaris";
import enPolaris from "@shopify/polaris/locales/en.json";
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleContext, MessagesContext } from "../../i18n/translate";
import { messagesFor } from "../../i18n/translate.server";
import { PurchaseButton } from "./PurchaseButton";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = "";
});

function mount(charged: boolean) {
  const submits: string[] = [];
  const container = document.createElement("div");
  document.body.appendChild(container);
  root = createRoot(container);
  act(() =>
    root!.render(
      <AppProvider i18n={enPolaris}>
        <LocaleContext.Provider value="en">
          <MessagesContext.Provider value={messagesFor("en")}>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                submits.push(new FormData(event.currentTarget).get("intent") as string);
              }}
            >
              <input type="hidden" name="intent" value="create" />
              <PurchaseButton charged={charged} orderName="#1035" disabled={false} loading={false}>
                Create label
              </PurchaseButton>
            </form>
          </MessagesContext.Provider>
        </LocaleContext.Provider>
      </AppProvider>,
    ),
  );
  const button = (text: string) =>
    [...document.querySelectorAll("button")].find((candidate) => candidate.textContent?.trim() === text);
  return { submits, button };
}

describe("the purchase button", () => {
  it("in production, asks before buying: the confirmation names the order and one charged label", () => {
    const { submits, button } = mount(true);
    act(() => button("Create label")!.click());
    expect(submits).toEqual([]);
    expect(document.body.textContent).toContain("This buys 1 production label for order #1035");
    act(() => button("Cancel")!.click());
    expect(submits).toEqual([]);

    act(() => button("Create label")!.click());
    act(() => button("Buy 1 charged label")!.click());
    expect(submits).toEqual(["create"]);
  });

  it("in staging, buys the free label on click, with no confirmation", () => {
    const { submits, button } = mount(false);
    act(() => button("Create label")!.click());
    expect(submits).toEqual(["create"]);
    expect(document.body.textContent).not.toContain("charged label");
  });
});
