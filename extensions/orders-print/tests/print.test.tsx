/// <reference types="@shopify/ui-extensions/admin.order-index.selection-print-action.render" />
import { getExtension } from "@shopify/ui-extensions-tester";
import { fireEvent, waitFor } from "@testing-library/preact";
import { render } from "preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const extension = getExtension("admin.order-index.selection-print-action.render");
const SELECTED = Array.from({ length: 3 }, (_, index) => ({ id: `gid://shopify/Order/${3000 + index}` }));

function printApi(answer: unknown, status = 200) {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(answer), { status }));
}

const action = () => document.body.querySelector("s-admin-print-action") as HTMLElement;
const text = () => document.body.textContent ?? "";

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = SELECTED;
});
afterEach(() => {
  render(null, document.body);
  extension.tearDown();
});

describe("orders-print print action", () => {
  it("asks the print API for the selected orders and gives the admin's Print button the merged PDF", async () => {
    const fetchMock = printApi({ files: [{ format: "PDF_10x15_300dpi", url: "/print/files/one.pdf", labelCount: 3 }] });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(action().getAttribute("src")).toBe("/print/files/one.pdf"));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/print");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ orderIds: SELECTED.map((order) => order.id) });
    expect(text()).toContain("ready");
  });

  it("lets the merchant choose between an A4 file and a 10×15 file, and points thermal labels to their download", async () => {
    extension.fetch = printApi({
      files: [
        { format: "PDF_A4_300dpi", url: "/print/files/a4.pdf", labelCount: 2 },
        { format: "PDF_10x15_300dpi", url: "/print/files/10x15.pdf", labelCount: 1 },
        { format: "ZPL_10x15_203dpi", url: "/print/files/labels.zpl", labelCount: 4 },
      ],
    });
    await extension.render();
    await waitFor(() => expect(action().getAttribute("src")).toBe("/print/files/a4.pdf"));
    const select = document.body.querySelector("s-select") as HTMLElement & { value?: string };
    select.value = "1";
    fireEvent.change(select);
    await waitFor(() => expect(action().getAttribute("src")).toBe("/print/files/10x15.pdf"));
    expect(document.body.querySelector('s-link[href="/print/files/labels.zpl"]')).not.toBeNull();
    expect(text()).toContain("thermal.body");
  });

  it("keeps Print disabled (no src) when the orders have no label yet, and says what to do", async () => {
    extension.fetch = printApi({ files: [] });
    await extension.render();
    await waitFor(() => expect(text()).toContain("noLabels"));
    expect(action().hasAttribute("src")).toBe(false);
  });

  it("shows the app's own message when the print API refuses", async () => {
    extension.fetch = printApi({ message: "Ces commandes appartiennent à une autre boutique." }, 403);
    await extension.render();
    await waitFor(() => expect(text()).toContain("Ces commandes appartiennent à une autre boutique."));
    expect(action().hasAttribute("src")).toBe(false);
  });
});
