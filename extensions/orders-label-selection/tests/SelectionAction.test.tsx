/// <reference types="@shopify/ui-extensions/admin.order-index.selection-action.render" />
import { getExtension } from "@shopify/ui-extensions-tester";
import { fireEvent, waitFor } from "@testing-library/preact";
import { render } from "preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BulkJobView, BulkPreflight } from "../../../app/bulk/types";
import { appHref } from "../src/SelectionAction";

const extension = getExtension("admin.order-index.selection-action.render");
const ids = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `gid://shopify/Order/${2000 + index}` }));
const order = (index: number) => ({ orderId: `gid://shopify/Order/${2000 + index}`, orderName: `#${2000 + index}` });

const preflight = (overrides: Partial<BulkPreflight> = {}): BulkPreflight => ({
  environment: "staging",
  ready: [order(0), order(1), order(2)],
  alreadyLabelled: [order(3)],
  blocked: [{ ...order(4), reasons: [{ code: "missing_hs_code", params: { message: "2 products have no HS code.", fix: "Add them in Shopify." } }] }],
  unknown: ["gid://shopify/Order/2005"],
  groups: [{ reason: { code: "missing_hs_code", params: { message: "2 products have no HS code.", fix: "Add them in Shopify." } }, orderCount: 1, orderNames: ["#2004"] }],
  chargedLabels: 0,
  ...overrides,
});

const job = (status: BulkJobView["status"], labelled: number): BulkJobView => ({
  id: "job-1",
  status,
  environment: "staging",
  createdAt: "2026-11-23T10:00:00Z",
  finishedAt: null,
  counts: { total: 5, labelled, refused: 0, blocked: 1, pending: 0, cancelled: 0, remaining: 5 - labelled - 1 },
  items: [],
});

function backend(routes: Record<string, (body: unknown) => unknown>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url, body });
    const route = routes[`${method} ${url.split("?")[0]}`];
    if (!route) return new Response(JSON.stringify({ message: "not here" }), { status: 404 });
    return new Response(JSON.stringify(route(body)), { status: 200 });
  });
  return { fetchMock, calls };
}

const text = () => document.body.textContent ?? "";
const primary = () => document.body.querySelector('s-button[slot="primary-action"]') as HTMLElement | null;
const disabled = (element: Element | null) => element?.hasAttribute("disabled");

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = ids(6);
});
afterEach(() => {
  render(null, document.body);
  extension.tearDown();
});

describe("orders selection action", () => {
  it("shows the preflight: ready, already labelled, blocked grouped by cause, unknown", async () => {
    const { fetchMock, calls } = backend({ "POST /api/bulk-jobs/preflight": () => preflight() });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(text()).toContain("2 products have no HS code. Add them in Shopify."));
    expect(calls[0]?.body).toEqual({ orderIds: ids(6).map((entry) => entry.id) });
    expect(text()).toContain("preflight.ready");
    expect(text()).toContain("preflight.alreadyLabelled");
    expect(text()).toContain("preflight.blocked");
    expect(text()).toContain("preflight.unknown");
    expect(text()).toContain("#2004");
    expect(disabled(primary())).toBe(false);
  });

  it("starts one job for the known orders, follows its progress and links to its page in the app", async () => {
    let reads = 0;
    const { fetchMock, calls } = backend({
      "POST /api/bulk-jobs/preflight": () => preflight(),
      "POST /api/bulk-jobs": () => ({ id: "job-1", url: "/app/bulk/job-1" }),
      "GET /api/bulk-jobs/job-1": () => (++reads === 1 ? job("RUNNING", 1) : job("COMPLETED", 3)),
    });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(disabled(primary())).toBe(false));
    // Two clicks in a row, before Preact re-renders (raw events, not wrapped in act): one request only.
    primary()!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    primary()!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await waitFor(() => expect(text()).toContain("job.progress"));
    const starts = calls.filter((call) => call.method === "POST" && call.url.startsWith("/api/bulk-jobs?"));
    expect(starts).toHaveLength(1);
    expect(starts[0]?.body).toEqual({ orderIds: ids(5).map((entry) => entry.id) });
    expect(document.body.querySelector("s-link")?.getAttribute("href")).toBe("app:/app/bulk/job-1");
    await waitFor(() => expect(reads).toBe(2), { timeout: 5000 });
    await waitFor(() => expect(document.body.querySelector("s-banner[tone=success]")).not.toBeNull());
  });

  it("in production, waits for the merchant to confirm the charged labels and sends that number", async () => {
    const { fetchMock, calls } = backend({
      "POST /api/bulk-jobs/preflight": () => preflight({ environment: "production", chargedLabels: 3 }),
      "POST /api/bulk-jobs": () => ({ id: "job-2", url: "/app/bulk/job-2" }),
      "GET /api/bulk-jobs/job-2": () => job("RUNNING", 0),
    });
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(document.body.querySelector("s-checkbox")).not.toBeNull());
    expect(disabled(primary())).toBe(true);
    const checkbox = document.body.querySelector("s-checkbox") as HTMLElement & { checked?: boolean };
    checkbox.checked = true;
    fireEvent.change(checkbox);
    await waitFor(() => expect(disabled(primary())).toBe(false));
    fireEvent.click(primary()!);
    await waitFor(() => expect(calls.some((call) => call.url.startsWith("/api/bulk-jobs?"))).toBe(true));
    expect(calls.find((call) => call.url.startsWith("/api/bulk-jobs?"))?.body).toMatchObject({ confirmChargedLabels: 3 });
  });

  it("offers nothing to start when no order is ready", async () => {
    extension.fetch = backend({ "POST /api/bulk-jobs/preflight": () => preflight({ ready: [] }) }).fetchMock;
    await extension.render();
    await waitFor(() => expect(text()).toContain("preflight.noneReady"));
    expect(disabled(primary())).toBe(true);
  });

  it("refuses a selection over the job limit before asking the app", async () => {
    extension.shopify.data.selected = ids(501);
    const { fetchMock } = backend({});
    extension.fetch = fetchMock;
    await extension.render();
    await waitFor(() => expect(text()).toContain("tooMany"));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("opens app paths inside the app", () => {
    expect(appHref("/app/bulk/1")).toBe("app:/app/bulk/1");
    expect(appHref("https://example.com/app/bulk/1")).toBe("https://example.com/app/bulk/1");
  });
});
