/**
 * A burst against a running demo (`npm run demo`): N order-page loads at once, then N "Create label" clicks at once,
 * as a browser sends them. Prints the HTTP statuses and what each page said (busy, created, other). Used for issue 10
 * item 4 (no 500 when Shopify throttles). `PORT=3000 BURST_N=64 npx tsx scripts/shopify-burst.ts`
 */
const base = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const n = Number(process.env.BURST_N ?? 64);
const ids = Array.from({ length: n }, (_, index) => String(7100001001 + index));
const tally: Record<string, Record<string, number>> = {};
const count = (what: string, key: string) => {
  const row = (tally[what] ??= {});
  row[key] = (row[key] ?? 0) + 1;
};
const kind = (html: string) =>
  html.includes("Shopify is busy") ? "busy" : html.includes("Label created") || html.includes("label was created") ? "created" : "other";

let start = Date.now();
await Promise.all(
  ids.map(async (id) => {
    const response = await fetch(`${base}/app/orders/${id}`);
    count("page", `${response.status} ${kind(await response.text())}`);
  }),
);
const pageMs = Date.now() - start;
start = Date.now();
await Promise.all(
  ids.map(async (id) => {
    const response = await fetch(`${base}/app/orders/${id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "create" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    count("create", `${response.status} ${kind(await response.text())}`);
  }),
);
console.log(JSON.stringify({ n, tally, pageMs, createMs: Date.now() - start }));
export {};
