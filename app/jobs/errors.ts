/** How a handler says what went wrong. Anything else thrown counts as retryable (bounded by the job's retry limit). */
export class RetryableJobError extends Error {
  readonly retryable = true;
  constructor(
    message: string,
    /** Overrides the backoff for the next attempt. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "RetryableJobError";
  }
}

/** Never retried: the job ends failed at once (e.g. invalid payload, order gone, a purchase whose outcome is unknown). */
export class TerminalJobError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = "TerminalJobError";
  }
}

export function isTerminal(error: unknown): boolean {
  return error instanceof TerminalJobError;
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 1000);
}
