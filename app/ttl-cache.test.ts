import { describe, expect, it } from "vitest";
import { createTtlCache } from "./ttl-cache";

function counting<V>(value: V) {
  const loads = { count: 0 };
  const load = async () => {
    loads.count += 1;
    return value;
  };
  return { loads, load };
}

describe("the TTL cache", () => {
  it("loads a key once while fresh, and again once its time is over", async () => {
    let clock = 0;
    const cache = createTtlCache<string>({ ttlMs: 1_000, now: () => clock });
    const { loads, load } = counting("v");
    expect(cache.peek("k")).toBeUndefined();
    expect(await cache.get("k", load)).toBe("v");
    clock = 999;
    expect(await cache.get("k", load)).toBe("v");
    expect(cache.peek("k")).toBe("v");
    expect(loads.count).toBe(1);
    clock = 1_000;
    expect(cache.peek("k")).toBeUndefined();
    await cache.get("k", load);
    expect(loads.count).toBe(2);
  });

  it("keeps a value from when it arrived, not from when its load started", async () => {
    let clock = 0;
    const cache = createTtlCache<number>({ ttlMs: 100, now: () => clock });
    let finish!: (value: number) => void;
    const pending = cache.get("k", () => new Promise<number>((resolve) => (finish = resolve)));
    clock = 500;
    finish(7);
    await pending;
    clock = 599;
    expect(cache.peek("k")).toBe(7);
  });

  it("shares a load under way between callers of the same key, not of another key", async () => {
    const cache = createTtlCache<boolean>({ ttlMs: 1_000 });
    const { loads, load } = counting(false);
    const [a, b] = await Promise.all([cache.get("job-1", load), cache.get("job-1", load), cache.get("job-2", load)]);
    expect([a, b]).toEqual([false, false]);
    expect(loads.count).toBe(2);
    // A falsy value is a value: kept like any other.
    expect(cache.peek("job-1")).toBe(false);
  });

  it("keeps no failure: the next caller loads again", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    await expect(cache.get("k", () => Promise.reject(new Error("503")))).rejects.toThrow("503");
    expect(cache.peek("k")).toBeUndefined();
    expect(await cache.get("k", async () => "ok")).toBe("ok");
  });

  it("holds at most maxEntries keys, dropping expired ones before fresh ones", async () => {
    let clock = 0;
    const cache = createTtlCache<string>({ ttlMs: 100, maxEntries: 2, now: () => clock });
    await cache.get("old", async () => "o");
    clock = 150;
    await cache.get("fresh", async () => "f");
    await cache.get("new", async () => "n");
    expect([cache.peek("old"), cache.peek("fresh"), cache.peek("new")]).toEqual([undefined, "f", "n"]);
    await cache.get("newer", async () => "x");
    expect([cache.peek("fresh"), cache.peek("new"), cache.peek("newer")]).toEqual([undefined, "n", "x"]);
  });

  it("clear forgets everything", async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    await cache.get("k", async () => "v");
    cache.clear();
    expect(cache.peek("k")).toBeUndefined();
  });
});
