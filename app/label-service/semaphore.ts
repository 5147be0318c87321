/** A small counting semaphore: at most `max` holders at once, the others wait in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error("Semaphore max must be a positive integer");
  }

  get inUse(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async acquire(): Promise<() => void> {
    if (this.active < this.max) {
      this.active += 1;
    } else {
      // The releaser hands its slot over directly, so `active` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}

const perAccount = new Map<string, Semaphore>();

/** One semaphore per account key in this process; the first caller's `max` wins for that key. */
export function accountSemaphore(key: string, max: number): Semaphore {
  let semaphore = perAccount.get(key);
  if (!semaphore) {
    semaphore = new Semaphore(max);
    perAccount.set(key, semaphore);
  }
  return semaphore;
}
