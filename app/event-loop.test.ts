import { describe, expect, it } from "vitest";
import { TimeSlices } from "./event-loop";

describe("TimeSlices", () => {
  it("lets waiting I/O callbacks run once a slice is used up, and not before", async () => {
    let now = 0;
    const slices = new TimeSlices(20, () => now);
    const ran: string[] = [];
    setImmediate(() => ran.push("waiting callback"));
    // Within the slice: no turn given, the callback still waits.
    now = 19;
    await slices.pace();
    ran.push("step 1");
    // The slice is used up: the callback runs before the loop's next step.
    now = 20;
    await slices.pace();
    ran.push("step 2");
    expect(ran).toEqual(["step 1", "waiting callback", "step 2"]);
  });

  it("starts a new slice after each turn", async () => {
    let now = 100;
    const slices = new TimeSlices(20, () => now);
    now = 125;
    await slices.pace();
    const ran: string[] = [];
    setImmediate(() => ran.push("callback"));
    now = 140; // 15 ms into the new slice
    await slices.pace();
    ran.push("step");
    expect(ran).toEqual(["step"]);
  });
});
