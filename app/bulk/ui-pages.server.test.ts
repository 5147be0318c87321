import { describe, expect, it } from "vitest";
import { bulkSelectionForm } from "../components/bulk/selection";
import { plural } from "../components/bulk/plural";
import { translator } from "../i18n/translate.server";
import { parseSelection, preflightPage, progressPage, POLL_PENDING_MS, POLL_RUNNING_MS } from "./ui-pages.server";
import type { BulkJobView, BulkPreflight } from "./types";

const dates = { locale: "fr" as const, timeZone: "Europe/Paris" };

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

function job(overrides: Partial<BulkJobView> = {}): BulkJobView {
  return {
    id: "job1",
    status: "RUNNING",
    environment: "staging",
    createdAt: "2026-11-23T21:00:00.000Z",
    finishedAt: null,
    counts: { total: 4, labelled: 1, refused: 1, blocked: 0, pending: 0, cancelled: 0, remaining: 2 },
    items: [
      { orderId: "gid://shopify/Order/1", orderName: "#1001", status: "LABELLED", reason: null, trackingNumber: "T1", labelId: "l1", alreadyLabelled: false },
      { orderId: "gid://shopify/Order/2", orderName: "#1002", status: "REFUSED", reason: { code: "service_refused", params: { message: "bad address" } }, trackingNumber: null, labelId: null, alreadyLabelled: false },
      { orderId: "gid://shopify/Order/3", orderName: "#1003", status: "QUEUED", reason: null, trackingNumber: null, labelId: null, alreadyLabelled: false },
      { orderId: "gid://shopify/Order/4", orderName: "#1004", status: "RUNNING", reason: null, trackingNumber: null, labelId: null, alreadyLabelled: false },
    ],
    ...overrides,
  };
}

describe("the selection Orders to ship posts", () => {
  it("round-trips the ticked rows as order numbers, and 'all matching' as the list's search and filters", () => {
    const page = bulkSelectionForm({ all: false, ids: ["gid://shopify/Order/7100001035", "gid://shopify/Order/7100001002"], params: { q: "", tab: "all", zone: [] } });
    expect(parseSelection(form(page))).toEqual({ scope: "page", orderIds: ["7100001035", "7100001002"] });
    const all = bulkSelectionForm({ all: true, ids: ["gid://shopify/Order/1"], params: { q: "Zürich", tab: "unlabelled", zone: ["world", "eu"] } });
    expect(parseSelection(form(all))).toEqual({ scope: "matching", q: "Zürich", tab: "unlabelled", zone: "world,eu" });
  });

  it("reads anything else as an empty selection (the page says what to do)", () => {
    expect(parseSelection(form({}))).toEqual({ scope: "page", orderIds: [] });
    expect(parseSelection(form({ scope: "everything" }))).toEqual({ scope: "page", orderIds: [] });
    expect(parseSelection(form({ scope: "page", orderIds: " , ,12, " }))).toEqual({ scope: "page", orderIds: ["12"] });
  });
});

describe("the progress page's data", () => {
  it("polls every 1.5 s while items run, with each reason in the merchant's language and the label file linked", () => {
    const view = progressPage(job(), "fr", dates, new Map([["l1", "https://labels.test/l1.pdf"]]));
    expect(view).toMatchObject({ pollMs: POLL_RUNNING_MS, percent: 50, retryable: 1, cancellable: true, finishedAt: null, createdAt: "23 nov. 2026, 22:00" });
    expect(view.items[0]).toMatchObject({ labelUrl: "https://labels.test/l1.pdf", reason: null });
    expect(view.items[1]!.reason).toMatch(/^Le service d'étiquettes a refusé l'étiquette : bad address\./);
  });

  it("stops polling once finished; polls slowly while a purchase is being settled", () => {
    const counts = { total: 2, labelled: 1, refused: 1, blocked: 0, pending: 0, cancelled: 0, remaining: 0 };
    const done = progressPage(job({ status: "COMPLETED", finishedAt: "2026-11-23T21:05:00.000Z", counts }), "en", { ...dates, locale: "en" }, new Map());
    expect(done).toMatchObject({ pollMs: null, percent: 100, cancellable: false });
    const settling = progressPage(job({ status: "COMPLETED", counts: { ...counts, refused: 0, pending: 1 } }), "en", dates, new Map());
    expect(settling.pollMs).toBe(POLL_PENDING_MS);
  });
});

describe("the preflight page's data", () => {
  it("starts the job with every order Shopify knows, bought or not, and words the groups", () => {
    const preflight: BulkPreflight = {
      environment: "production",
      ready: [{ orderId: "gid://shopify/Order/1", orderName: "#1001" }],
      alreadyLabelled: [{ orderId: "gid://shopify/Order/2", orderName: "#1002" }],
      blocked: [{ orderId: "gid://shopify/Order/3", orderName: "#1003", reasons: [{ code: "purchase_in_progress", params: { reference: "R1" } }] }],
      unknown: ["gid://shopify/Order/9"],
      groups: [{ reason: { code: "purchase_in_progress", params: { reference: "R1" } }, orderCount: 1, orderNames: ["#1003"] }],
      chargedLabels: 1,
    };
    const page = preflightPage(preflight, "en");
    expect(page.jobOrderIds).toEqual(["gid://shopify/Order/1", "gid://shopify/Order/3", "gid://shopify/Order/2"]);
    expect(page.groups).toEqual([{ text: expect.stringMatching(/^1 order: A purchase for this order is already under way/), orderCount: 1, orders: [{ orderName: "#1003", orderId: "gid://shopify/Order/3" }] }]);
    expect(page.blocked[0]!.reason).toMatch(/reference R1/);
  });
});

describe("which rule chose each order's service", () => {
  const order = (n: number, serviceChoice?: BulkPreflight["ready"][number]["serviceChoice"]) => ({ orderId: `gid://shopify/Order/${n}`, orderName: `#${1000 + n}`, ...(serviceChoice ? { serviceChoice } : {}) });
  const preflight: BulkPreflight = {
    environment: "staging",
    ready: [
      order(1, { source: "zone_default", zone: "world" }),
      order(2, { source: "rule", position: 2, name: "Point relais" }),
      order(3, { source: "rule", position: 1, name: "Express" }),
      order(4, { source: "rule", position: 2, name: "Point relais" }),
      order(6),
    ],
    alreadyLabelled: [],
    blocked: [{ ...order(5, { source: "rule", position: 1, name: "Express" }), reasons: [{ code: "purchase_in_progress", params: { reference: "R1" } }] }],
    unknown: [],
    groups: [],
    chargedLabels: 0,
  };
  const names = (group: { orders: { orderName: string }[] }) => group.orders.map((entry) => entry.orderName);

  it("groups ready and blocked orders by rule, in the rules' order, then the zone defaults", () => {
    const groups = preflightPage(preflight, "en").serviceChoices;
    expect(groups.map((group) => [group.text, names(group)])).toEqual([
      ['Chosen by shipping rule 1 "Express".', ["#1003", "#1005"]],
      ['Chosen by shipping rule 2 "Point relais".', ["#1002", "#1004"]],
      ["Chosen by the default service for Rest of the world (Settings); no shipping rule matched.", ["#1001"]],
    ]);
  });

  it("says it in French", () => {
    const groups = preflightPage(preflight, "fr").serviceChoices;
    expect(groups[0]!.text).toMatch(/règle d'expédition 1 .*Express/);
    expect(groups[2]!.text).toMatch(/Reste du monde/);
  });

  it("shows nothing for orders whose service nobody chose yet (not mapped)", () => {
    expect(preflightPage({ ...preflight, ready: [order(6)], blocked: [] }, "en").serviceChoices).toEqual([]);
  });
});

describe("plural", () => {
  it("follows each language's rule (French: 0 and 1 are singular)", () => {
    expect(plural(translator("fr"), "fr", "bulk.new.selected", 0)).toBe("0 commande sélectionnée.");
    expect(plural(translator("fr"), "fr", "bulk.new.selected", 2)).toBe("2 commandes sélectionnées.");
    expect(plural(translator("en"), "en", "bulk.new.selected", 0)).toBe("0 orders selected.");
    expect(plural(translator("en"), "en", "bulk.new.selected", 1)).toBe("1 order selected.");
  });
});
