/**
 * Long synchronous loops on the server (a 500-order preflight checks every order, about 2 ms each) hold the event
 * loop for seconds: every other request of the process (a merchant's page, a webhook, a job's item) waits meanwhile.
 * A loop calls `pace()` between steps; once it has run a slice of `sliceMs`, `pace()` gives the event loop one turn
 * (I/O callbacks, timers) before the loop goes on. Below a slice it costs one clock read.
 */
export class TimeSlices {
  private sliceStart: number;

  constructor(
    private readonly sliceMs = 20,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.sliceStart = clock();
  }

  async pace(): Promise<void> {
    if (this.clock() - this.sliceStart < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = this.clock();
  }
}

/**
 * `items` in consecutive chunks of `size` (a multi-row statement each), with `slices.pace()` before each chunk: the
 * event loop gets its turn between statements, which libSQL runs synchronously. A caller that also paces inside a
 * chunk (per-row work) passes its own `slices`.
 */
export async function* pacedChunks<T>(
  items: readonly T[],
  size: number,
  slices = new TimeSlices(),
): AsyncGenerator<readonly T[]> {
  for (let start = 0; start < items.length; start += size) {
    await slices.pace();
    yield items.slice(start, start + size);
  }
}
