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
