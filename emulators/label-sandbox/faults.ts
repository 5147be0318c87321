/**
 * Fault injection. Each fault fires with a probability and/or for the next N matching requests (deterministic, for
 * tests). Set at start (options or LABEL_SANDBOX_FAULTS JSON) or at runtime with POST /__admin/faults.
 */
import { z } from "zod";

const trigger = { probability: z.number().min(0).max(1).default(0), next: z.number().int().min(0).default(0) };

export const faultConfigSchema = z.object({
  /** Added delay, uniform between minMs and maxMs. */
  latency: z.object({ ...trigger, minMs: z.number().int().min(0).default(0), maxMs: z.number().int().min(0).default(0) }).default({ probability: 0, next: 0, minMs: 0, maxMs: 0 }),
  /** A 5xx before processing (nothing stored). */
  error5xx: z.object({ ...trigger, status: z.number().int().min(500).max(599).default(503) }).default({ probability: 0, next: 0, status: 503 }),
  /** 429 with Retry-After. */
  rateLimit: z.object({ ...trigger, retryAfterSeconds: z.number().int().min(0).default(1) }).default({ probability: 0, next: 0, retryAfterSeconds: 1 }),
  /** The connection is destroyed before anything is processed. */
  resetBeforeProcessing: z.object(trigger).default({ probability: 0, next: 0 }),
  /** generate_label only: the label is stored (charged), then the connection is destroyed. */
  chargedButLost: z.object(trigger).default({ probability: 0, next: 0 }),
  /**
   * generate_label only: a 422 naming one field, as a carrier refuses what its published rules allow (an address
   * its own base does not know). Nothing is stored.
   */
  refuseLabel: z
    .object({ ...trigger, field: z.string().default("recipient.address_line1"), message: z.string().default("adresse inconnue du transporteur") })
    .default({ probability: 0, next: 0, field: "recipient.address_line1", message: "adresse inconnue du transporteur" }),
});
export type FaultConfig = z.output<typeof faultConfigSchema>;
export type FaultConfigInput = z.input<typeof faultConfigSchema>;
export type FaultName = keyof FaultConfig;

export function defaultFaults(): FaultConfig {
  return faultConfigSchema.parse({});
}

/** Merges a partial update into the current config (each fault replaced field by field). */
export function mergeFaults(current: FaultConfig, update: unknown): FaultConfig {
  const patch = z.record(z.string(), z.record(z.string(), z.unknown())).parse(update);
  const merged: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    if (!(name in current)) throw new Error(`unknown fault "${name}"`);
    merged[name] = { ...(current as Record<string, object>)[name], ...value };
  }
  return faultConfigSchema.parse(merged);
}

/** Whether a fault fires now; consumes one of its `next` shots when it does. */
export function fires(config: FaultConfig, name: FaultName, random: () => number): boolean {
  const fault = config[name];
  if (fault.next > 0) {
    fault.next -= 1;
    return true;
  }
  return fault.probability > 0 && random() < fault.probability;
}
