import { describe, expect, it } from "vitest";
import { pacedChunks, TimeSlices } from "./event-loop";

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

describe("pacedChunks", () => {
  it("hands the items over in order, in chunks of the size asked, the last one shorter", async () => {
    const chunks: (readonly number[])[] = [];
    for await (const chunk of pacedChunks([1, 2, 3, 4, 5, 6, 7], 3)) chunks.push(chunk);
    expect(chunks).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    for await (const chunk of pacedChunks([], 3)) chunks.push(chunk);
    expect(chunks).toHaveLength(3);
  });

  it("gives the event loop its turn before a chunk once the slice is used up, and not before", async () => {
    let now = 0;
    const ran: string[] = [];
    setImmediate(() => ran.push("waiting callback"));
    for await (const chunk of pacedChunks(["a", "b"], 1, new TimeSlices(20, () => now))) {
      ran.push(`chunk ${chunk.join("")}`);
      now += 25; // the chunk's statement used up the slice
    }
    expect(ran).toEqual(["chunk a", "waiting callback", "chunk b"]);
  });
});
