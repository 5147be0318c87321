/**
 * Issue 10 item 1 and issue 11 item 4, against the label sandbox with the real client: a purchase whose answer was
 * lost is found however many labels were bought after it (the lookup reads back to the attempt's own time, not a
 * page count), "Attach this label" finds the right id beyond 400 labels, and the order is never released while the
 * list has not been read back that far.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, startLabelSandbox, type LabelSandbox } from "../../emulators/label-sandbox/server";
import { guideExampleLabelRequest } from "../../app/label-service/__fixtures__/example-request";
import { createLabelServiceClient, type LabelServiceClient } from "../../app/label-service";
import { purchaseLabel, type PurchaseDeps } from "../../app/labels/purchase.server";
import { attachLabelById, reconcileAttempt, releaseReviewedAttempt } from "../../app/labels/settle.server";
import { createTestDatabase } from "../helpers/test-db";

const database = createTestDatabase();
const db = database.prisma;
let sandbox: LabelSandbox;
const SHOP = "busy.myshopify.com";

beforeAll(async () => {
  sandbox = await startLabelSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});
beforeEach(async () => {
  await fetch(`${sandbox.url}/__admin/reset`, { method: "POST" });
  await db.purchaseAttempt.deleteMany();
  await db.label.deleteMany();
});

/** A client already signed in, so a fault set next hits generate_label, not the sign-in. */
async function client(options: { lookupMaxPages?: number } = {}): Promise<LabelServiceClient> {
  const created = createLabelServiceClient({
    shop: SHOP,
    environment: "staging",
    account: { baseUrl: sandbox.url, ...DEMO_ACCOUNT },
    options: { generateTimeoutMs: 5_000, defaultTimeoutMs: 5_000, ...options },
  });
  await created.authenticate({ force: true });
  return created;
}

async function faults(next: Record<string, unknown>) {
  await fetch(`${sandbox.url}/__admin/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(next) });
}

async function sandboxLabels() {
  return (await (await fetch(`${sandbox.url}/__admin/labels`)).json()) as {
    count: number;
    labels: { id: string; custom_reference?: string }[];
    countByReference: Record<string, number>;
  };
}

/** A domestic request the sandbox accepts (DHL "n" is valid for FR). */
const labelRequest = (reference: string) => ({ ...guideExampleLabelRequest(), custom_reference: reference });

/** Other orders (or shops sharing the account) buy `count` labels after the interrupted purchase. */
async function busyHour(service: LabelServiceClient, count: number) {
  for (let batch = 0; batch < count; batch += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - batch) }, (_, index) =>
        service.generateLabel(labelRequest(`20991231-${String(batch + index + 1).padStart(4, "0")}`)),
      ),
    );
  }
}

const order = (n: number) => ({
  shop: SHOP,
  environment: "staging" as const,
  orderId: `gid://shopify/Order/${n}`,
  orderName: `#${n}`,
  buildRequest: labelRequest,
});

describe("a purchase with a lost answer, then a busy hour (over 400 newer labels)", () => {
  it("is found by reference and stored, however far back it is: one label, nothing bought again", async () => {
    const service = await client();
    await faults({ chargedButLost: { next: 1 } });
    const first = await purchaseLabel({ db, service }, order(1));
    if (first.status !== "unknown") throw new Error(JSON.stringify(first));
    await busyHour(service, 450);

    const reconciled = await reconcileAttempt({ db, service }, SHOP, first.attempt.id);
    if (reconciled.status !== "created") throw new Error(JSON.stringify(reconciled));
    expect(reconciled.label.customReference).toBe(first.attempt.customReference);
    expect((await sandboxLabels()).countByReference[first.attempt.customReference]).toBe(1);
    expect((await purchaseLabel({ db, service }, order(1))).status).toBe("already_labelled");
  });

  it("'Attach this label' finds the right id beyond 400 labels", async () => {
    const service = await client();
    await faults({ chargedButLost: { next: 1 } });
    const first = await purchaseLabel({ db, service }, order(2));
    if (first.status !== "unknown") throw new Error(JSON.stringify(first));
    await db.purchaseAttempt.update({ where: { id: first.attempt.id }, data: { status: "NEEDS_REVIEW", nextReconcileAt: null } });
    await busyHour(service, 450);
    const bought = (await sandboxLabels()).labels.find((label) => label.custom_reference === first.attempt.customReference);
    if (!bought) throw new Error("the sandbox should hold the charged label");

    const attached = await attachLabelById({ db, service }, SHOP, first.attempt.id, bought.id);
    if (attached.status !== "created") throw new Error(JSON.stringify(attached));
    expect(attached.label.serviceLabelId).toBe(bought.id);
  });

  it("is never released while the list was not read back to the attempt's time (page cap), so no second label is bought", async () => {
    // The label service answers 503 and bought nothing; 450 labels follow; lookups stop at 5 pages (100 labels).
    const service = await client({ lookupMaxPages: 5 });
    await faults({ error5xx: { next: 1 } });
    const first = await purchaseLabel({ db, service }, order(3));
    if (first.status !== "unknown") throw new Error(JSON.stringify(first));
    await busyHour(service, 450);

    let clock = new Date();
    const deps: PurchaseDeps = { db, service, now: () => clock };
    let result = await reconcileAttempt(deps, SHOP, first.attempt.id);
    while (result.status === "pending") {
      clock = new Date(result.attempt.nextReconcileAt!.getTime());
      result = await reconcileAttempt(deps, SHOP, first.attempt.id);
    }
    expect(result.status).toBe("needs_review");
    expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toBeNull();
    expect((await purchaseLabel({ db, service }, order(3))).status).toBe("in_progress");
    expect((await sandboxLabels()).count).toBe(450);
  });

  it("once two lookups read the list back to the attempt's time and found nothing, the merchant may release", async () => {
    const service = await client();
    await faults({ error5xx: { next: 1 } });
    const first = await purchaseLabel({ db, service }, order(4));
    if (first.status !== "unknown") throw new Error(JSON.stringify(first));
    await busyHour(service, 450);

    const once = await reconcileAttempt({ db, service }, SHOP, first.attempt.id);
    expect(once.status).toBe("pending");
    // One lookup right after the call is not enough: the service may still be writing the label.
    expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toBeNull();
    const twice = await reconcileAttempt({ db, service, now: () => new Date(Date.now() + 60_000) }, SHOP, first.attempt.id);
    expect(twice.status).toBe("pending");
    expect(await releaseReviewedAttempt(db, SHOP, first.attempt.id)).toMatchObject({ status: "REJECTED", orderSlot: null });
    expect((await purchaseLabel({ db, service }, order(4))).status).toBe("created");
    expect((await sandboxLabels()).count).toBe(451);
  });
});
