import { DEFAULT_RECONCILE_TIMINGS } from "../config.server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/helpers/test-db";
import { exampleLabelRequest } from "../label-service/__fixtures__/example-request";
import type { LabelRequest } from "../label-service/contract";
import { nextLabelIndex, purchaseLabel, type GenerateOutcome, type LabelLookup, type LabelServicePort, type RemoteLabel } from "./purchase.server";
import { attachLabelById, canRelease, dueReconciliations, RECONCILE_BACKOFF_MS, reconcileAttempt, releaseReviewedAttempt, STALE_PENDING_MS } from "./settle.server";
import { allocateCustomReference, formatReference } from "./references.server";

const database = createTestDatabase();
const db = database.prisma;
afterAll(() => database.close());

const SHOP = "shop-a.myshopify.com";
const ORDER = "gid://shopify/Order/1001";

function request(reference: string): LabelRequest {
  return exampleLabelRequest({ custom_reference: reference });
}

/** A label service double that records calls; each outcome can be scripted. */
function fakeService(script: Array<GenerateOutcome | "create"> = []) {
  const bought = new Map<string, RemoteLabel>();
  const calls: string[] = [];
  let counter = 0;
  const service: LabelServicePort & { calls: string[]; bought: Map<string, RemoteLabel>; delayMs: number } = {
    calls,
    bought,
    delayMs: 0,
    async generateLabel(req) {
      calls.push(req.custom_reference);
      if (service.delayMs) await new Promise((resolve) => setTimeout(resolve, service.delayMs));
      const next = script.shift() ?? "create";
      if (next !== "create") return next;
      counter += 1;
      const label = { id: `L${counter}`, reference: `JD0000${counter}`, label_url: `https://s.test/l/${counter}.pdf`, tracking_url: `https://s.test/t/${counter}` };
      bought.set(req.custom_reference, { ...label, custom_reference: req.custom_reference });
      return { status: "created", label: { ...label, message: "ok" } } as GenerateOutcome;
    },
    async lookUpLabelByReference(reference) {
      const label = bought.get(reference);
      return label ? { status: "found", label } : { status: "absent" };
    },
  };
  return service;
}

const input = { shop: SHOP, environment: "staging" as const, orderId: ORDER, orderName: "#1001", buildRequest: request };

beforeEach(async () => {
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
  await db.referenceCounter.deleteMany();
  await db.labelServiceAccount.deleteMany();
});

describe("custom references", () => {
  it("are <YYYYMMDD>-<counter>, per shop and per day", async () => {
    const day = new Date("2020-12-18T09:00:00Z");
    expect(await allocateCustomReference(db, SHOP, day)).toBe("20201218-001");
    expect(await allocateCustomReference(db, SHOP, day)).toBe("20201218-002");
    expect(await allocateCustomReference(db, "other.myshopify.com", day)).toBe("20201218-001");
    expect(await allocateCustomReference(db, SHOP, new Date("2020-12-19T09:00:00Z"))).toBe("20201219-001");
    expect(formatReference("20201218", 13)).toBe("20201218-013");
  });

  it("never repeat under concurrency", async () => {
    const refs = await Promise.all(Array.from({ length: 20 }, () => allocateCustomReference(db, SHOP)));
    expect(new Set(refs).size).toBe(20);
  });
});

describe("purchaseLabel", () => {
  it("records the attempt before calling, then stores the label", async () => {
    const service = fakeService();
    const result = await purchaseLabel({ db, service }, input);
    expect(result.status).toBe("created");
    if (result.status !== "created") return;
    expect(result.label).toMatchObject({ shop: SHOP, orderId: ORDER, trackingNumber: "JD00001", carrierName: "Dhl", labelFormat: "PDF_A4_300dpi" });
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    expect(attempt).toMatchObject({ status: "CREATED", labelId: result.label.id, customReference: service.calls[0] });
    expect(JSON.parse(attempt.requestJson).custom_reference).toBe(service.calls[0]);
  });

  it("a second click returns the existing label and never calls the service again", async () => {
    const service = fakeService();
    await purchaseLabel({ db, service }, input);
    const again = await purchaseLabel({ db, service }, input);
    expect(again.status).toBe("already_labelled");
    expect(service.calls).toHaveLength(1);
  });

  it("a caller that saw the slot empty skips the early read, and a slot taken meanwhile still reports its holder", async () => {
    const service = fakeService();
    const created = await purchaseLabel({ db, service }, input);
    expect(created.status).toBe("created");
    const counter = async () => (await db.referenceCounter.findFirstOrThrow()).value;
    expect(await counter()).toBe(1);
    // As if the caller's read had come just before the first purchase: the unique slot answers instead of the read.
    const again = await purchaseLabel({ db, service }, { ...input, slotSeenFree: true });
    expect(again).toEqual({ status: "already_labelled", label: expect.objectContaining({ id: created.status === "created" ? created.label.id : "" }) });
    expect(service.calls).toHaveLength(1);
    expect(await db.purchaseAttempt.count()).toBe(1);
    // The early read was skipped: a reference was drawn for the attempt the slot then refused (the early read would
    // have answered before drawing one).
    expect(await counter()).toBe(2);
    await purchaseLabel({ db, service }, input);
    expect(await counter()).toBe(2);
  });

  it("concurrent purchases for one order buy exactly one label", async () => {
    const service = fakeService();
    service.delayMs = 30;
    const results = await Promise.all(Array.from({ length: 6 }, () => purchaseLabel({ db, service }, input)));
    expect(service.calls).toHaveLength(1);
    expect(results.filter((result) => result.status === "created")).toHaveLength(1);
    expect(results.every((result) => ["created", "in_progress", "already_labelled"].includes(result.status))).toBe(true);
    expect(await db.label.count()).toBe(1);
  });

  /** A service whose purchases wait for a turn (as a bulk item's do) until `open()`; counts the turns handed back. */
  function serviceWithTurns() {
    const service = fakeService();
    let open: () => void = () => {};
    const turns = { taken: 0, released: 0, sent: 0 };
    const gate = new Promise<void>((resolve) => (open = resolve));
    const withTurns: LabelServicePort & { calls: string[] } = {
      ...service,
      calls: service.calls,
      async reserveGenerate() {
        await gate;
        turns.taken += 1;
        return {
          generateLabel: (req) => {
            turns.sent += 1;
            return service.generateLabel(req);
          },
          release: async () => {
            turns.released += 1;
          },
        };
      },
    };
    return { service: withTurns, open: () => open(), turns };
  }

  it("waits for its turn at the service before it records its attempt, and calls in that turn", async () => {
    const { service, open, turns } = serviceWithTurns();
    const purchase = purchaseLabel({ db, service }, input);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Waiting: nothing recorded, so nothing looks in flight to reconciliation.
    expect(await db.purchaseAttempt.count()).toBe(0);
    open();
    const result = await purchase;
    expect(result.status).toBe("created");
    expect(turns).toMatchObject({ taken: 1, sent: 1 });
    expect(turns.released).toBeGreaterThanOrEqual(1);
  });

  it("hands its turn back without calling when the order's slot was taken while it waited", async () => {
    const { service, open, turns } = serviceWithTurns();
    const purchase = purchaseLabel({ db, service }, input);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Another purchase of the order (another tab, another instance) took the slot meanwhile.
    const other = await purchaseLabel({ db, service: fakeService() }, input);
    expect(other.status).toBe("created");
    open();
    const result = await purchase;
    expect(result.status).toBe("already_labelled");
    expect(turns).toMatchObject({ taken: 1, sent: 0 });
    expect(turns.released).toBeGreaterThanOrEqual(1);
    expect(await db.label.count()).toBe(1);
  });

  it("a rejection charges nothing and frees the order for a corrected retry", async () => {
    const service = fakeService([{ status: "rejected", error: { message: "recipient.zip: code postal invalide", httpStatus: 422 } }]);
    const first = await purchaseLabel({ db, service }, input);
    expect(first.status).toBe("rejected");
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    expect(attempt).toMatchObject({ status: "REJECTED", orderSlot: null });
    expect(JSON.parse(attempt.errorJson!).message).toContain("code postal");
    const second = await purchaseLabel({ db, service }, input);
    expect(second.status).toBe("created");
    expect(service.calls).toHaveLength(2);
    expect(new Set(service.calls).size).toBe(2);
  });

  it("an unknown outcome holds the order until reconciliation finds the label", async () => {
    const service = fakeService();
    // The service bought the label, but the answer was lost.
    const lost: GenerateOutcome = { status: "unknown", error: { message: "socket hang up" } };
    service.generateLabel = async (req) => {
      service.calls.push(req.custom_reference);
      service.bought.set(req.custom_reference, { id: "L77", reference: "JD777", label_url: "u", tracking_url: "t", custom_reference: req.custom_reference });
      return lost;
    };
    const first = await purchaseLabel({ db, service }, input);
    expect(first.status).toBe("unknown");
    expect((await purchaseLabel({ db, service }, input)).status).toBe("in_progress");
    expect(service.calls).toHaveLength(1);
    if (first.status !== "unknown") return;
    const reconciled = await reconcileAttempt({ db, service }, SHOP, first.attempt.id);
    expect(reconciled.status).toBe("created");
    expect(await db.label.count()).toBe(1);
    expect((await db.label.findFirstOrThrow()).trackingNumber).toBe("JD777");
    expect((await purchaseLabel({ db, service }, input)).status).toBe("already_labelled");
  });

  it("a thrown client error is treated as unknown, never retried", async () => {
    const service = fakeService();
    service.generateLabel = async (req) => {
      service.calls.push(req.custom_reference);
      throw new Error("boom");
    };
    const result = await purchaseLabel({ db, service }, input);
    expect(result.status).toBe("unknown");
    expect(service.calls).toHaveLength(1);
  });

  it("backs off, then asks the merchant to review; only the merchant can free the order", async () => {
    const service = fakeService([{ status: "unknown", error: { message: "timeout" } }]);
    let clock = new Date("2026-11-22T10:00:00Z");
    const now = () => clock;
    const first = await purchaseLabel({ db, service, now }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    const delays: number[] = [];
    let result = await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id);
    while (result.status === "pending") {
      const next = result.attempt.nextReconcileAt!.getTime();
      delays.push(next - clock.getTime());
      clock = new Date(next);
      result = await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id);
    }
    expect(delays).toEqual(RECONCILE_BACKOFF_MS.slice(1));
    expect(result.status).toBe("needs_review");
    expect((await purchaseLabel({ db, service, now }, input)).status).toBe("in_progress");
    expect(await releaseReviewedAttempt(db, "other.myshopify.com", first.attempt.id)).toBeNull();
    expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toMatchObject({ status: "REJECTED", orderSlot: null });
    // A second click (or another tab) finds it settled already.
    expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toBeNull();
    expect((await purchaseLabel({ db, service, now }, input)).status).toBe("created");
  });

  it("an additional label is an explicit, separate slot", async () => {
    const service = fakeService();
    await purchaseLabel({ db, service }, input);
    const index = await nextLabelIndex(db, SHOP, ORDER);
    expect(index).toBe(2);
    const extra = await purchaseLabel({ db, service }, { ...input, labelIndex: index });
    expect(extra.status).toBe("created");
    expect(await db.label.count({ where: { orderId: ORDER } })).toBe(2);
  });

  it("never reconciles another shop's attempt", async () => {
    const service = fakeService([{ status: "unknown", error: { message: "timeout" } }]);
    const first = await purchaseLabel({ db, service }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    await expect(reconcileAttempt({ db, service }, "other.myshopify.com", first.attempt.id)).rejects.toThrow(/no purchase attempt/);
  });
});

describe("a charged label is never lost track of", () => {
  const later = () => new Date(Date.now() + STALE_PENDING_MS + 60_000);

  it("an attempt left PENDING by a process that died mid-call is reconciled once it is stale", async () => {
    const service = fakeService();
    const charged = service.generateLabel.bind(service);
    // The service charges, then the app process dies before the answer is recorded: the call never returns.
    service.generateLabel = (req) => {
      void charged(req);
      return new Promise<GenerateOutcome>(() => {});
    };
    void purchaseLabel({ db, service }, input);
    await expect.poll(() => service.bought.size).toBe(1);
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    expect(attempt.status).toBe("PENDING");

    // Still in flight: neither due nor reconcilable, and the slot stays held.
    expect(await dueReconciliations(db, new Date())).toEqual([]);
    expect((await reconcileAttempt({ db, service }, SHOP, attempt.id)).status).toBe("not_reconcilable");
    expect((await purchaseLabel({ db, service }, input)).status).toBe("in_progress");

    expect((await dueReconciliations(db, later())).map((due) => due.id)).toEqual([attempt.id]);
    const reconciled = await reconcileAttempt({ db, service, now: later }, SHOP, attempt.id);
    expect(reconciled.status).toBe("created");
    expect((await purchaseLabel({ db, service }, input)).status).toBe("already_labelled");
    expect(service.bought.size).toBe(1);
  });

  it("a stale PENDING attempt with no label found follows the UNKNOWN backoff", async () => {
    const service = fakeService();
    service.generateLabel = () => new Promise<GenerateOutcome>(() => {});
    void purchaseLabel({ db, service }, input);
    await expect.poll(() => db.purchaseAttempt.count()).toBe(1);
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    const result = await reconcileAttempt({ db, service, now: later }, SHOP, attempt.id);
    if (result.status !== "pending") throw new Error(JSON.stringify(result));
    expect(result.attempt).toMatchObject({ status: "UNKNOWN", reconcileCount: 1 });
    expect(result.attempt.errorJson).toContain("stopped before");
  });

  it("a label bought but not stored (database error) keeps the slot and is adopted by reconciliation", async () => {
    const service = fakeService();
    let failTransaction = true;
    const flaky = new Proxy(db, {
      get(target, property) {
        if (property === "$transaction" && failTransaction) {
          failTransaction = false;
          return () => Promise.reject(new Error("database is locked"));
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const result = await purchaseLabel({ db: flaky, service }, input);
    if (result.status !== "unknown") throw new Error(JSON.stringify(result));
    expect(result.error.message).toMatch(/L1.*was bought but could not be stored.*database is locked/);
    expect((await purchaseLabel({ db, service }, input)).status).toBe("in_progress");
    // The label the service answered with is kept: stored even when the service's list does not show its reference.
    service.lookUpLabelByReference = async () => ({ status: "absent" });
    const reconciled = await reconcileAttempt({ db, service, now: () => new Date(Date.now() + 10_000) }, SHOP, result.attempt.id);
    if (reconciled.status !== "created") throw new Error(JSON.stringify(reconciled));
    expect(reconciled.label).toMatchObject({ serviceLabelId: "L1", trackingNumber: "JD00001" });
    expect(service.calls).toHaveLength(1);
  });

  // The attempt went stale while its call was out (it waited for a slot, or the service was slow): reconciliation found
  // and stored the label, then the call's own answer came. Whatever that answer says, the attempt keeps its label and
  // its slot (a slot given back with a label behind it would let the order be bought again).
  const lateAnswers: Array<[string, (outcome: GenerateOutcome) => GenerateOutcome]> = [
    ["the label itself", (outcome) => outcome],
    ["no clear answer", () => ({ status: "unknown", error: { message: "no answer within 4 s" } })],
    ["a refusal", () => ({ status: "rejected", error: { message: "refused", httpStatus: 422 } })],
  ];
  it.each(lateAnswers)("when reconciliation stores the label first, a slow answer (%s) gets that label back: one label, the slot kept, nothing to release", async (_name, late) => {
    const service = fakeService();
    const charged = service.generateLabel.bind(service);
    let answer: () => void = () => {};
    service.generateLabel = async (req) => {
      const outcome = await charged(req); // bought and listed now...
      return new Promise<GenerateOutcome>((resolve) => {
        answer = () => resolve(late(outcome)); // ...answered much later
      });
    };
    const original = purchaseLabel({ db, service }, input);
    await expect.poll(() => service.bought.size).toBe(1);
    const attempt = await db.purchaseAttempt.findFirstOrThrow();
    const reconciled = await reconcileAttempt({ db, service, now: later }, SHOP, attempt.id);
    if (reconciled.status !== "created") throw new Error(JSON.stringify(reconciled));
    answer();
    const result = await original;
    if (result.status !== "created") throw new Error(JSON.stringify(result));
    expect(result.label.id).toBe(reconciled.label.id);
    expect(await db.label.count()).toBe(1);
    expect(await db.purchaseAttempt.findUniqueOrThrow({ where: { id: attempt.id } })).toMatchObject({ status: "CREATED", labelId: reconciled.label.id, orderSlot: attempt.orderSlot });
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toBeNull();
    expect(await reconcileAttempt({ db, service, now: later }, SHOP, attempt.id)).toMatchObject({ status: "not_reconcilable" });
    expect(service.calls).toHaveLength(1);
  });
});

describe("shops sharing one label-service account", () => {
  const OTHER = "shop-b.myshopify.com";
  async function shareAccount() {
    for (const shop of [SHOP, OTHER]) {
      await db.labelServiceAccount.create({
        data: { shop, environment: "staging", email: shop === SHOP ? "ops@brand.test" : "OPS@brand.test", passwordCiphertext: "x", keyVersion: 1 },
      });
    }
  }

  it("never get the same custom_reference on the same day", async () => {
    await shareAccount();
    const service = fakeService();
    const a = await purchaseLabel({ db, service }, input);
    const b = await purchaseLabel({ db, service }, { ...input, shop: OTHER, orderId: "gid://shopify/Order/2002", orderName: "#2002" });
    if (a.status !== "created" || b.status !== "created") throw new Error("expected two labels");
    expect(a.label.customReference).not.toBe(b.label.customReference);
    expect(b.label.customReference.endsWith("-002")).toBe(true);
  });

  it("a shop starting late in the day jumps past every reference the other shop used", async () => {
    await shareAccount();
    const service = fakeService();
    for (let n = 0; n < 60; n += 1) {
      const bought = await purchaseLabel({ db, service }, { ...input, orderId: `gid://shopify/Order/${5000 + n}`, orderName: `#${5000 + n}` });
      expect(bought.status).toBe("created");
    }
    const b = await purchaseLabel({ db, service }, { ...input, shop: OTHER, orderId: "gid://shopify/Order/2002", orderName: "#2002" });
    if (b.status !== "created") throw new Error(JSON.stringify(b));
    expect(b.label.customReference.endsWith("-061")).toBe(true);
  });

  it("a reference used by both shops is not adopted automatically, and a stored label is never adopted twice", async () => {
    await shareAccount();
    const service = fakeService();
    const a = await purchaseLabel({ db, service }, input);
    if (a.status !== "created") throw new Error("expected a label");
    // Shop B's attempt ended unknown with the same reference (e.g. its counter raced shop A's).
    const twin = await db.purchaseAttempt.create({
      data: { shop: OTHER, orderId: "gid://shopify/Order/2002", orderName: "#2002", environment: "staging", customReference: a.label.customReference, status: "UNKNOWN", requestJson: JSON.stringify(request(a.label.customReference)) },
    });
    const result = await reconcileAttempt({ db, service }, OTHER, twin.id);
    if (result.status !== "needs_review") throw new Error(JSON.stringify(result));
    expect(JSON.parse(result.attempt.errorJson ?? "{}")).toMatchObject({ message: expect.stringContaining("another shop"), messageFr: expect.stringContaining("autre boutique") });
    expect(await db.label.count()).toBe(1);
  });
});

describe("attaching a label found in the service's list", () => {
  async function reviewAttempt(service: ReturnType<typeof fakeService>) {
    const first = await purchaseLabel({ db, service }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    return db.purchaseAttempt.update({ where: { id: first.attempt.id }, data: { status: "NEEDS_REVIEW", nextReconcileAt: null } });
  }
  function listing(labels: RemoteLabel[]) {
    return {
      lookUpLabelById: async (id: string): Promise<LabelLookup> => {
        const label = labels.find((listed) => listed.id === id);
        return label ? { status: "found", label } : { status: "absent" };
      },
    };
  }

  it("stores the label by its id, without buying, when the service lists it without a reference", async () => {
    const service = Object.assign(fakeService([{ status: "unknown", error: { message: "timeout" } }]), listing([{ id: "R9", reference: "6A123" }]));
    const attempt = await reviewAttempt(service);
    const result = await attachLabelById({ db, service }, SHOP, attempt.id, " R9 ");
    if (result.status !== "created") throw new Error(JSON.stringify(result));
    expect(result.label).toMatchObject({ serviceLabelId: "R9", trackingNumber: "6A123", customReference: attempt.customReference });
    expect(service.calls).toHaveLength(1);
    expect((await purchaseLabel({ db, service }, input)).status).toBe("already_labelled");
  });

  it("refuses an unknown id, another purchase's label, a label stored already, and a settled attempt", async () => {
    const service = Object.assign(
      fakeService([{ status: "unknown", error: { message: "timeout" } }]),
      listing([
        { id: "R1", reference: "6A1", custom_reference: "20000101-001" },
        { id: "L1", reference: "6A2" },
        { id: "R3", reference: "6A3" },
      ]),
    );
    const attempt = await reviewAttempt(service);
    const other = await purchaseLabel({ db, service }, { ...input, orderId: "gid://shopify/Order/77", orderName: "#77" });
    if (other.status !== "created") throw new Error("expected the other order's label");
    const reason = async (id: string) => {
      const result = await attachLabelById({ db, service }, SHOP, attempt.id, id);
      return result.status === "refused" ? result.reason : result.status;
    };
    expect(await reason("NOPE")).toMatchObject({ message: expect.stringContaining("does not list"), messageFr: expect.stringContaining("aucune étiquette") });
    expect(await reason("R1")).toMatchObject({ message: expect.stringContaining("20000101-001") });
    expect(await reason("L1")).toMatchObject({ message: expect.stringContaining("already stored for order #77") });
    expect(await reason("R3")).toBe("created");
    expect(await reason("R3")).toMatchObject({ message: expect.stringContaining("not waiting for review") });
    await expect(attachLabelById({ db, service }, "other.myshopify.com", attempt.id, "R3")).rejects.toThrow(/no purchase attempt/);
  });
});

describe("releasing the order ('No label was bought')", () => {
  async function unknownAttempt(lookups: LabelLookup[]) {
    // The service answered 503: it did not process the call, so no late charge can follow (decision 0061).
    const service = fakeService([{ status: "unknown", error: { message: "HTTP 503", httpStatus: 503 } }]);
    service.lookUpLabelByReference = async () => lookups.shift() ?? { status: "absent" };
    const first = await purchaseLabel({ db, service }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    return { service, attempt: first.attempt };
  }
  const later = (ms: number) => () => new Date(Date.now() + ms);

  it("is possible once two lookups after the call read the list back to the attempt's time and found nothing", async () => {
    const { service, attempt } = await unknownAttempt([{ status: "absent" }, { status: "absent" }]);
    const once = await reconcileAttempt({ db, service }, SHOP, attempt.id);
    if (once.status !== "pending") throw new Error(JSON.stringify(once));
    expect(canRelease(once.attempt)).toBe(false);
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toBeNull();
    const twice = await reconcileAttempt({ db, service, now: later(10_000) }, SHOP, attempt.id);
    if (twice.status !== "pending") throw new Error(JSON.stringify(twice));
    expect(twice.attempt).toMatchObject({ status: "UNKNOWN", absentLookups: 2, lastLookup: "absent" });
    expect(canRelease(twice.attempt)).toBe(true);
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toMatchObject({ status: "REJECTED", orderSlot: null });
  });

  it("is never possible while a lookup was stopped by the page cap, even after review; a later complete pair allows it", async () => {
    const capped: LabelLookup = { status: "incomplete", reason: "page_cap", pagesRead: 500 };
    const { service, attempt } = await unknownAttempt([{ status: "absent" }, capped, capped, capped, capped, capped]);
    let clock = new Date();
    const now = () => clock;
    let result = await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    while (result.status === "pending") {
      clock = new Date(result.attempt.nextReconcileAt!.getTime());
      result = await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    }
    if (result.status !== "needs_review") throw new Error(JSON.stringify(result));
    expect(result.attempt).toMatchObject({ absentLookups: 0, lastLookup: "page_cap" });
    expect(JSON.parse(result.attempt.errorJson ?? "{}")).toMatchObject({ message: expect.stringContaining("500 pages"), messageFr: expect.stringContaining("500 pages") });
    expect(canRelease(result.attempt)).toBe(false);
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toBeNull();
    // "Check again" twice, a few seconds apart, each reading the whole span now.
    await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    clock = new Date(clock.getTime() + 10_000);
    const checked = await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    if (checked.status !== "needs_review") throw new Error(JSON.stringify(checked));
    expect(canRelease(checked.attempt)).toBe(true);
  });

  it("with a service that lists no references, is left to the merchant only after review, once the list was read that far", async () => {
    const unreferenced: LabelLookup = { status: "incomplete", reason: "unreferenced" };
    const { service, attempt } = await unknownAttempt(Array.from({ length: 6 }, () => unreferenced));
    let clock = new Date();
    const now = () => clock;
    let result = await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    expect(result.status === "pending" && canRelease(result.attempt)).toBe(false);
    while (result.status === "pending") {
      clock = new Date(result.attempt.nextReconcileAt!.getTime());
      result = await reconcileAttempt({ db, service, now }, SHOP, attempt.id);
    }
    if (result.status !== "needs_review") throw new Error(JSON.stringify(result));
    expect(result.attempt).toMatchObject({ absentLookups: 0, lastLookup: "unreferenced" });
    expect(canRelease(result.attempt)).toBe(true);
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toMatchObject({ status: "REJECTED" });
  });

  it("needs the two lookups a moment apart: a second one at the same instant does not count", async () => {
    const { service, attempt } = await unknownAttempt([{ status: "absent" }, { status: "absent" }, { status: "absent" }]);
    await reconcileAttempt({ db, service }, SHOP, attempt.id);
    const sameInstant = await reconcileAttempt({ db, service }, SHOP, attempt.id);
    if (sameInstant.status !== "pending") throw new Error(JSON.stringify(sameInstant));
    expect(sameInstant.attempt.absentLookups).toBe(1);
    expect(canRelease(sameInstant.attempt)).toBe(false);
    const later_ = await reconcileAttempt({ db, service, now: later(RECONCILE_BACKOFF_MS[1]!) }, SHOP, attempt.id);
    if (later_.status !== "pending") throw new Error(JSON.stringify(later_));
    expect(canRelease(later_.attempt)).toBe(true);
  });

  it("is never possible before the late-charge window when the service did not answer; the late label is adopted (chaos: #1002)", async () => {
    // The call timed out; the service processed it 20 s later and charged it. Clicks and the background pass looked in
    // between: none of those lookups may allow "No label was bought" (it would buy a second label).
    const service = fakeService([{ status: "unknown", error: { message: "timeout" } }]);
    let charged = false;
    service.lookUpLabelByReference = async (reference) =>
      charged ? { status: "found", label: { id: "LATE", reference: "JDLATE", custom_reference: reference } } : { status: "absent" };
    let clock = new Date();
    const now = () => clock;
    const first = await purchaseLabel({ db, service, now }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    for (let click = 0; click < 12; click += 1) {
      clock = new Date(clock.getTime() + 1_500);
      const checked = await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id);
      if (checked.status === "created") throw new Error("nothing was charged yet");
      expect(canRelease(checked.attempt)).toBe(false);
      expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toBeNull();
    }
    const beforeLate = await db.purchaseAttempt.findUniqueOrThrow({ where: { id: first.attempt.id } });
    // Clicks before the next scheduled try look, but use up no step of the backoff.
    expect(beforeLate).toMatchObject({ status: "UNKNOWN", absentLookups: 0 });
    expect(beforeLate.reconcileCount).toBeLessThanOrEqual(3);
    expect(JSON.parse(beforeLate.errorJson ?? "{}")).toMatchObject({ message: expect.stringContaining("may still process it until") });
    charged = true;
    clock = new Date(clock.getTime() + 5_000);
    expect((await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id)).status).toBe("created");
    expect(await db.label.count()).toBe(1);
  });

  it("counts lookups towards release once the late-charge window has passed", async () => {
    const service = fakeService([{ status: "unknown", error: { message: "timeout" } }]);
    let clock = new Date();
    const now = () => clock;
    const first = await purchaseLabel({ db, service, now }, input);
    if (first.status !== "unknown") throw new Error("expected unknown");
    clock = new Date(clock.getTime() + DEFAULT_RECONCILE_TIMINGS.lateChargeWindowMs + 1);
    await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id);
    clock = new Date(clock.getTime() + 10_000);
    const second = await reconcileAttempt({ db, service, now }, SHOP, first.attempt.id);
    if (second.status !== "pending") throw new Error(JSON.stringify(second));
    expect(canRelease(second.attempt)).toBe(true);
  });

  it("is never possible when the lookup failed (the service's list could not be read)", async () => {
    const { service, attempt } = await unknownAttempt([]);
    service.lookUpLabelByReference = async () => {
      throw Object.assign(new Error("HTTP 503 while listing labels"), { messageFr: "HTTP 503 pendant la lecture de la liste" });
    };
    const first = await reconcileAttempt({ db, service }, SHOP, attempt.id);
    const second = await reconcileAttempt({ db, service, now: later(10_000) }, SHOP, attempt.id);
    if (first.status !== "pending" || second.status !== "pending") throw new Error("expected pending");
    expect(second.attempt).toMatchObject({ absentLookups: 0, lastLookup: "failed" });
    expect(await releaseReviewedAttempt(db, SHOP, attempt.id)).toBeNull();
  });
});
