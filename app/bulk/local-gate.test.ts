import { describe, expect, it } from "vitest";
import { LocalGate } from "./local-gate";

describe("LocalGate", () => {
  it("admits up to its limit, then one waiter per leave, in order", async () => {
    const gate = new LocalGate(2);
    const order: number[] = [];
    await gate.enter();
    await gate.enter();
    const third = gate.enter().then(() => order.push(3));
    const fourth = gate.enter().then(() => order.push(4));
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.leave();
    await third;
    expect(order).toEqual([3]);
    gate.leave();
    await fourth;
    expect(order).toEqual([3, 4]);
  });

  it("an aborted waiter leaves the line and never takes a place", async () => {
    const gate = new LocalGate(1);
    await gate.enter();
    const controller = new AbortController();
    const waiting = gate.enter(controller.signal);
    controller.abort(new Error("stopping"));
    await expect(waiting).rejects.toThrow("stopping");
    gate.leave();
    await gate.enter();
    expect(true).toBe(true);
  });
});
