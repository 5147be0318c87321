/// <reference types="@shopify/ui-extensions/admin.order-details.action.render" />
import { getExtension } from "@shopify/ui-extensions-tester";
import { fireEvent, waitFor } from "@testing-library/preact";
import { render } from "preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CreateLabelAnswer, OrderLabelSummary } from "../../../app/extensions/order-label-api";

const extension = getExtension("admin.order-details.action.render");
const ORDER = "gid://shopify/Order/1001";

const summary = (overrides: Partial<OrderLabelSummary> = {}): OrderLabelSummary => ({
  orderId: ORDER,
  orderName: "#1001",
  environment: "staging",
  state: "ready",
  draft: {
    recipient: { name: "Camille Martin", lines: ["12 rue des Lilas", "75011 Paris"], country: "France" },
    parcel: { box: "Small box", weightGrams: 850 },
    service: "Colissimo Home",
    customsRequired: false,
  },
  problems: [],
  note: null,
  labels: [],
  ...overrides,
});

type Route = (init: RequestInit | undefined) => unknown;

/** The backend as the extension sees it: JSON by method and path; anything else is a 404. */
function backend(routes: Record<string, Route>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const path = url.split("?")[0];
    const route = routes[`${method} ${path}`];
    if (!route) return new Response(JSON.stringify({ message: "not here" }), { status: 404 });
    const answer = route(init);
    return answer instanceof Response ? answer : new Response(JSON.stringify(answer), { status: 200 });
  });
  return { fetchMock, calls };
}

const text = () => document.body.textContent ?? "";
const primary = () => document.body.querySelector('s-button[slot="primary-action"]') as HTMLElement;
/** The tester's DOM has no Polaris element classes, so Preact writes the properties as attributes. */
const disabled = (element: Element) => element.hasAttribute("disabled");

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = [{ id: ORDER }];
  // The tester's i18n returns the key; our "locale" key names the language, as our locale files do.
  extension.shopify.i18n.translate = ((key: string) => (key === "locale" ? "fr" : key)) as typeof extension.shopify.i18n.translate;
});
afterEach(() => {
  // Unmount, so the next test's render starts from a fresh component (the tester only empties the DOM).
  render(null, document.body);
  extension.tearDown();
});

describe("order-details action", () => {
  it("shows the draft's summary and enables Create label for a ready order, asking in the admin's language", async () => {
    const { fetchMock, calls } = backend({ "GET /api/orders/1001/label": () => summary() });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(text()).toContain("Camille Martin"));
    expect(calls[0]?.url).toBe("/api/orders/1001/label?locale=fr");
    expect(text()).toContain("75011 Paris");
    expect(text()).toContain("Colissimo Home");
    expect(text()).toContain("draft.cn23NotNeeded");
    expect(document.body.querySelector("s-admin-action")?.getAttribute("heading")).toBe("heading");
    expect(primary().textContent).toBe("create");
    expect(disabled(primary())).toBe(false);
  });

  it("lists blocking problems with their fixes and keeps Create label disabled", async () => {
    const { fetchMock } = backend({
      "GET /api/orders/1001/label": () =>
        summary({ state: "blocked", problems: [{ message: "The postcode 7501 is not a French postcode.", fix: "Correct the shipping address in Shopify." }] }),
    });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(text()).toContain("The postcode 7501 is not a French postcode."));
    expect(text()).toContain("Correct the shipping address in Shopify.");
    expect(disabled(primary())).toBe(true);
  });

  it("creates the label with one POST, then shows the tracking number and a Print button on the merged PDF", async () => {
    const created: CreateLabelAnswer = { outcome: "labelled", alreadyLabelled: false, label: { id: "l1", trackingNumber: "6A12345678901", trackingUrl: "https://track.example/6A12345678901" }, note: null };
    const { fetchMock, calls } = backend({
      "GET /api/orders/1001/label": () => summary(),
      "POST /api/orders/1001/label": () => created,
      "POST /api/print": () => ({ files: [{ format: "PDF_A4_300dpi", url: "/print/files/abc.pdf", labelCount: 1 }] }),
    });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(disabled(primary())).toBe(false));
    // Two clicks in a row, before Preact re-renders (raw events, not wrapped in act): one request only.
    primary().dispatchEvent(new MouseEvent("click", { bubbles: true }));
    primary().dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await waitFor(() => expect(text()).toContain("label.tracking"));
    await waitFor(() => expect(primary().getAttribute("href")).toBe("/print/files/abc.pdf"));
    expect(calls.filter((call) => call.method === "POST" && call.url.startsWith("/api/orders/"))).toHaveLength(1);
    expect(calls.find((call) => call.url === "/api/print")?.body).toEqual({ orderIds: [ORDER] });
    expect(primary().textContent).toBe("print");
  });

  it("shows the service's refusal and keeps the order unlabelled", async () => {
    const { fetchMock } = backend({
      "GET /api/orders/1001/label": () => summary(),
      "POST /api/orders/1001/label": () => ({ outcome: "refused", retryable: false, message: "Le service d'étiquettes a refusé l'étiquette : code postal inconnu." }),
    });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(disabled(primary())).toBe(false));
    fireEvent.click(primary());
    await waitFor(() => expect(text()).toContain("code postal inconnu"));
    expect(primary().textContent).toBe("create");
  });

  it("says so when the app does not answer, without offering to buy again blindly", async () => {
    extension.fetch = vi.fn(async () => new Response("", { status: 500 }));
    await extension.render();
    await waitFor(() => expect(text()).toContain("error.load"));
    expect(disabled(primary())).toBe(true);
  });

  it("closes through the admin", async () => {
    extension.fetch = backend({ "GET /api/orders/1001/label": () => summary() }).fetchMock;
    const close = vi.spyOn(extension.shopify, "close");
    await extension.render();
    fireEvent.click(document.body.querySelector('s-button[slot="secondary-actions"]') as HTMLElement);
    expect(close).toHaveBeenCalled();
  });
});
