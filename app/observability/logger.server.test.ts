import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { DestinationStream } from "pino";
import { createLogger, errorFields, forJob, moduleLogger, REDACTED, redactFields, withRequestId } from "./logger.server";

function capture(level = "info") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level, destination: destination as unknown as DestinationStream });
  return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

// Canaries: none of these values may appear in any log line.
const CANARIES = {
  password: "canary-pa55word",
  token: "canary-jwt-eyJhbGci",
  accessToken: "shpat_canary",
  authorization: "Bearer canary-bearer",
  name: "Camille Canari",
  address1: "12 rue du Canari",
  city: "Canariville",
  zip: "75999",
  phone: "+33 6 99 99 99 99",
  email: "camille@canari.example",
};

describe("the app logger", () => {
  it("writes one JSON object per line with level, ISO time, message and the ids given", () => {
    const { logger, entries } = capture();
    forJob(logger.child({ module: "jobs" }), { id: "job-1", name: "label-order", shop: "shop-a.myshopify.com" }).info(
      { orderId: "gid://shopify/Order/1" },
      "job started",
    );
    const [entry] = entries();
    expect(entry).toMatchObject({
      level: "info",
      msg: "job started",
      module: "jobs",
      jobId: "job-1",
      job: "label-order",
      shop: "shop-a.myshopify.com",
      orderId: "gid://shopify/Order/1",
    });
    expect(new Date(String(entry?.time)).toISOString()).toBe(entry?.time);
  });

  it("adds the request id to every line logged while the request is handled, also after an await", async () => {
    const { logger, entries } = capture();
    await withRequestId("req-42", async () => {
      logger.info("before");
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.child({ module: "shopify" }).info("after");
    });
    logger.info("outside");
    expect(entries().map((entry) => entry.requestId)).toEqual(["req-42", "req-42", undefined]);
  });

  it("honours the level and falls back to info for an unknown one", () => {
    const quiet = capture("warn");
    quiet.logger.info("hidden");
    quiet.logger.warn("shown");
    expect(quiet.entries().map((entry) => entry.msg)).toEqual(["shown"]);
    const unknown = capture("loud");
    unknown.logger.debug("hidden");
    unknown.logger.info("shown");
    expect(unknown.entries().map((entry) => entry.msg)).toEqual(["LOG_LEVEL is not a pino level; using info", "shown"]);
  });

  it("never writes a secret or a recipient's personal data, at the top level or nested (canary)", () => {
    const { logger, lines } = capture("trace");
    logger.info({ ...CANARIES }, "flat");
    logger.warn({ request: { headers: { authorization: CANARIES.authorization, cookie: "session=canary" } } }, "headers");
    logger.error({ payload: { shipping_address: { address1: CANARIES.address1, city: CANARIES.city } } }, "webhook");
    logger.info({ account: { email: CANARIES.email, password: CANARIES.password } }, "account");
    logger.info({ label: { receiver: { name: CANARIES.name, phone: CANARIES.phone, zip: CANARIES.zip } } }, "label");
    logger.child({ session: { accessToken: CANARIES.accessToken } }).info("child bindings");
    const text = lines.join("\n");
    for (const value of Object.values(CANARIES)) expect(text).not.toContain(value);
    expect(text).toContain(REDACTED);
    expect(lines).toHaveLength(6);
  });

  it("redacts two objects deep, in arrays, and in the bindings of a child's child, leaving the caller's objects as they were", () => {
    const { logger, entries } = capture();
    const fields = { labels: [{ recipient: { city: CANARIES.city } }], order: { lines: { phone: CANARIES.phone } }, count: 2 };
    const before = structuredClone(fields);
    logger.info(fields, "nested");
    logger.child({ module: "bulk" }).child({ job: { token: CANARIES.token } }).info("grandchild");
    expect(fields).toEqual(before);
    const [nested, grandchild] = entries();
    expect(nested).toMatchObject({ labels: [{ recipient: REDACTED }], order: { lines: { phone: REDACTED } }, count: 2 });
    expect(grandchild).toMatchObject({ module: "bulk", job: { token: REDACTED }, msg: "grandchild" });
  });

  it("returns a line without a redacted key as it came, and keeps an error's type, message and stack when it redacts in it", () => {
    const plain = { operation: "FulfillmentCreate", shop: "a.myshopify.com", durationMs: 12, nested: { outcome: "ok" } };
    expect(redactFields(plain)).toBe(plain);
    const frozen = Object.freeze({ config: Object.freeze({ apiKey: "canary-key", timeoutMs: 5 }) });
    expect(redactFields(frozen)).toEqual({ config: { apiKey: REDACTED, timeoutMs: 5 } });
    expect(frozen.config.apiKey).toBe("canary-key");
    const bytes = Buffer.from("password");
    expect(redactFields({ bytes }).bytes).toBe(bytes);
    const error = Object.assign(new TypeError("refused"), { request: { password: CANARIES.password } });
    const { err } = redactFields({ err: error });
    expect(err).not.toBe(error);
    expect(err).toBeInstanceOf(TypeError);
    expect({ message: err.message, stack: err.stack, request: err.request }).toEqual({ message: "refused", stack: error.stack, request: { password: REDACTED } });
    expect(error.request.password).toBe(CANARIES.password);
    const { logger, entries } = capture();
    logger.error({ err: error }, "call failed");
    const [line] = entries();
    expect(line).toMatchObject({ err: { type: "TypeError", message: "refused", request: { password: REDACTED } } });
    expect(String((line!.err as { stack: string }).stack)).toContain("TypeError: refused");
  });

  it("redacts what a child's own log formatter and later bindings carry, and never throws for an odd object", () => {
    const { logger, entries } = capture();
    const child = logger.child({ module: "odd" }, { formatters: { log: (fields) => ({ ...fields, formatted: true }) } });
    child.info({ account: { password: CANARIES.password } }, "own formatter");
    child.setBindings({ session: { accessToken: CANARIES.accessToken } });
    child.info("later bindings");
    class Kept {
      #hidden = "x";
      email = CANARIES.email;
      toJSON() {
        return { hidden: this.#hidden };
      }
    }
    const throwing = Object.defineProperty({ phone: CANARIES.phone }, "broken", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const written = { toJSON: () => ({ account: { password: CANARIES.password }, count: 1 }) };
    const failing = { toJSON: () => ({ zip: CANARIES.zip }) };
    const list = Object.defineProperty([{ city: CANARIES.city }], "1", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const aggregate = Object.assign(new AggregateError([new Error("first")], "several"), { request: { token: CANARIES.token } });
    expect(() => logger.info({ kept: new Kept(), throwing, written, failing, list }, "odd objects")).not.toThrow();
    logger.error({ err: aggregate }, "several failed");
    const [formatted, later, odd, failed] = entries();
    expect(formatted).toMatchObject({ formatted: true, account: { password: REDACTED } });
    expect(later).toMatchObject({ session: { accessToken: REDACTED } });
    expect(odd).toMatchObject({
      // As toJSON writes it (its e-mail is not written), and redacted in what toJSON writes.
      kept: { hidden: "x" },
      throwing: { phone: REDACTED, broken: "[unreadable]" },
      written: { account: { password: REDACTED }, count: 1 },
      failing: { zip: REDACTED },
      list: [{ city: REDACTED }, "[unreadable]"],
    });
    expect(failed).toMatchObject({ err: { type: "AggregateError", message: "several", request: { token: REDACTED }, aggregateErrors: [{ message: "first" }] } });
    expect(JSON.stringify(entries())).not.toMatch(/canary|Canari|camille/);
  });

  it("gives one child per module while the root logger is the same, each line carrying its module", () => {
    const previous = globalThis.__etiquetteLogger;
    try {
      const first = capture();
      globalThis.__etiquetteLogger = first.logger;
      const jobs = moduleLogger("jobs");
      expect(moduleLogger("jobs")).toBe(jobs);
      expect(moduleLogger("shopify")).not.toBe(jobs);
      jobs.info("one");
      moduleLogger("shopify").info("two");
      // The kept child still takes each request's id at the time it writes.
      withRequestId("req-1", () => moduleLogger("jobs").info("in one request"));
      withRequestId("req-2", () => moduleLogger("jobs").info("in another"));
      expect(first.entries().map(({ module, msg, requestId }) => ({ module, msg, requestId }))).toEqual([
        { module: "jobs", msg: "one", requestId: undefined },
        { module: "shopify", msg: "two", requestId: undefined },
        { module: "jobs", msg: "in one request", requestId: "req-1" },
        { module: "jobs", msg: "in another", requestId: "req-2" },
      ]);
      // Another root logger (tests swap it): its own children, writing where it writes.
      const second = capture();
      globalThis.__etiquetteLogger = second.logger;
      expect(moduleLogger("jobs")).not.toBe(jobs);
      moduleLogger("jobs").info("three");
      expect(second.entries().map(({ module, msg }) => ({ module, msg }))).toEqual([{ module: "jobs", msg: "three" }]);
      expect(first.lines).toHaveLength(4);
    } finally {
      globalThis.__etiquetteLogger = previous;
    }
  });

  it("logs an error as its type and message", () => {
    expect(errorFields(new TypeError("boom"))).toEqual({ err: { type: "TypeError", message: "boom" } });
    expect(errorFields("plain")).toEqual({ err: { type: "string", message: "plain" } });
  });
});
