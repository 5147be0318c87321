/**
 * An in-process counting gate in front of the database semaphore: at most `limit` callers of this process try the
 * shared slots at once; the others wait on a promise (no polling). Without it every waiting item would poll the
 * slot table (`limit` INSERTs per try, every ~50 ms), which costs more CPU than labelling itself.
 */
export class LocalGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async enter(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(admit);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(signal!.reason instanceof Error ? signal!.reason : new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(admit);
    });
  }

  /** Hands the place to the next waiter (the count stays), or frees it. */
  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
