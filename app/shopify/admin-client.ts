/**
 * The one way the app runs an Admin GraphQL document: through the library's Admin client (real Shopify, or the
 * emulator in demo mode), with the response checked by zod. The rest of the app never builds a GraphQL string.
 */
import type { z } from "zod";
import { moduleLogger } from "../observability/logger.server";
import { shopifyThrottleWait } from "../observability/metrics.server";
import { InProcessShopifyBudget, type ShopifyBudget, type ThrottleStatus } from "./budget";

/** The part of shopify-app-remix's AdminApiContext that we use (easy to fake in tests). */
export interface AdminGraphqlClient {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
  /** Whose budget the calls spend, and how long they may wait for it (see `withShopifyBudget`). */
  readonly pacing?: AdminPacing;
}

export interface AdminClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: AdminClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface AdminPacing {
  /** The shop whose bucket is tracked; without it, THROTTLED answers are still waited out, but nothing is paced. */
  shop?: string;
  budget?: ShopifyBudget;
  clock?: AdminClock;
  /** The most one operation may wait for Shopify's budget in total before it gives up with ShopifyBusyError. */
  maxWaitMs?: number;
}

/** A request may wait this long for Shopify's budget (pacing and THROTTLED answers together), then it gives up. */
export const DEFAULT_MAX_WAIT_MS = 10_000;

/** One budget per shop for this process, until the server installs the database's (`useShopifyBudget`). */
export const processShopifyBudget: ShopifyBudget = new InProcessShopifyBudget();
let defaultBudget: ShopifyBudget = processShopifyBudget;

/** The budget of clients whose pacing names none: the app's server sets the one shared through the database. */
export function useShopifyBudget(budget: ShopifyBudget): void {
  defaultBudget = budget;
}

/** The client, paced by its shop's budget. Every route and background job gets its Admin client through this. */
export function withShopifyBudget<Client extends AdminGraphqlClient>(admin: Client, pacing: AdminPacing): Client {
  return Object.assign(Object.create(Object.getPrototypeOf(admin) as object | null) as Client, admin, { pacing: { ...admin.pacing, ...pacing } });
}

/**
 * Compile-time link between codegen and zod: `true` only when every response the generated type allows (from the
 * pinned schema) is accepted by the zod schema we parse it with.
 */
export type MatchesGenerated<Generated, Schema extends z.ZodType> = [Generated] extends [z.input<Schema>] ? true : never;

export type AdminErrorKind = "throttled" | "graphql" | "http" | "shape" | "user_errors";

export class AdminApiError extends Error {
  constructor(
    readonly kind: AdminErrorKind,
    message: string,
    readonly details: unknown = undefined,
  ) {
    super(message);
    this.name = "AdminApiError";
  }

  /** Whether the same call may succeed later unchanged (the job queue retries these; a page says so). */
  get retryable(): boolean {
    return this.kind === "throttled";
  }
}

/**
 * Shopify's budget for this shop stayed short for longer than the call may wait: nothing was done (a query, or a
 * mutation Shopify refused as THROTTLED, which it never executes). Retryable, after `retryAfterMs`.
 */
export class ShopifyBusyError extends AdminApiError {
  constructor(
    readonly operationName: string,
    readonly retryAfterMs: number,
    details: unknown = undefined,
  ) {
    super("throttled", `${operationName}: Shopify is busy (its rate limit for this shop); retry in ${Math.ceil(retryAfterMs / 1000)} s`, details);
    this.name = "ShopifyBusyError";
  }
}

/** The call got no answer at all (connection refused or reset): a query may be sent again, a mutation may have run. */
export class AdminTransportError extends AdminApiError {
  constructor(message: string, details: unknown) {
    super("http", message, details);
    this.name = "AdminTransportError";
  }
}

export function isShopifyBusy(error: unknown): error is ShopifyBusyError {
  return error instanceof ShopifyBusyError;
}

interface GraphqlErrorLike {
  message?: string;
  extensions?: { code?: string };
}

interface CostExtension {
  requestedQueryCost?: number | null;
  actualQueryCost?: number | null;
  throttleStatus?: ThrottleStatus;
}

function isThrottled(errors: GraphqlErrorLike[]): boolean {
  return errors.some((error) => error.extensions?.code === "THROTTLED");
}

function costOf(body: unknown): CostExtension | undefined {
  const cost = (body as { extensions?: { cost?: unknown } } | undefined)?.extensions?.cost;
  if (!cost || typeof cost !== "object") return undefined;
  const status = (cost as CostExtension).throttleStatus;
  const valid =
    status && [status.maximumAvailable, status.currentlyAvailable, status.restoreRate].every((value) => typeof value === "number" && Number.isFinite(value));
  return { ...(cost as CostExtension), throttleStatus: valid && status.restoreRate > 0 ? status : undefined };
}

/** Pulls GraphQL errors out of whatever the library threw (GraphqlQueryError carries `body`). */
function errorsFromThrown(thrown: unknown): GraphqlErrorLike[] | undefined {
  if (typeof thrown !== "object" || thrown === null) return undefined;
  const body = (thrown as { body?: { errors?: unknown } }).body;
  const errors = body?.errors;
  if (Array.isArray(errors)) return errors as GraphqlErrorLike[];
  if (errors && typeof errors === "object" && "graphQLErrors" in errors) {
    const list = (errors as { graphQLErrors?: unknown }).graphQLErrors;
    if (Array.isArray(list)) return list as GraphqlErrorLike[];
  }
  return undefined;
}

type Sent = { throttled: false; data: unknown; cost?: CostExtension } | { throttled: true; errors: GraphqlErrorLike[]; hasData: boolean; cost?: CostExtension };

/** One call. THROTTLED is returned (with the cost extension) for the caller to wait out; every other error throws. */
async function send(admin: AdminGraphqlClient, operationName: string, document: string, variables: Record<string, unknown>): Promise<Sent> {
  let response: Response;
  try {
    response = await admin.graphql(document, { variables });
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown; // auth redirects from the library
    const errors = errorsFromThrown(thrown);
    const body = (thrown as { body?: { data?: unknown } }).body;
    if (errors && isThrottled(errors)) return { throttled: true, errors, hasData: body?.data != null, cost: costOf(body) };
    if (errors) {
      const messages = errors.map((error) => error.message).join("; ");
      throw new AdminApiError("graphql", `${operationName}: ${messages}`, errors);
    }
    const message = `${operationName}: ${(thrown as Error)?.message ?? String(thrown)}`;
    const answered = typeof thrown === "object" && thrown !== null && ("response" in thrown || "code" in thrown);
    throw answered ? new AdminApiError("http", message, thrown) : new AdminTransportError(message, thrown);
  }
  if (!response.ok) {
    throw new AdminApiError("http", `${operationName}: Shopify answered HTTP ${response.status}`);
  }
  const body = (await response.json()) as { data?: unknown; errors?: GraphqlErrorLike[] };
  if (body.errors?.length) {
    if (isThrottled(body.errors)) return { throttled: true, errors: body.errors, hasData: body.data != null, cost: costOf(body) };
    throw new AdminApiError("graphql", `${operationName}: ${body.errors.map((e) => e.message).join("; ")}`, body.errors);
  }
  return { throttled: false, data: body.data, cost: costOf(body) };
}

/** Requested costs seen per document and page size; Shopify's own figure, used to pace the next call of the same kind. */
const requestedCosts = new Map<string, number>();
/**
 * Before a document's first answer, a guess corrected by that answer: a mutation costs 10 points per top-level field
 * (one in every document of this app); a query is guessed at about what the label flow's trimmed queries request.
 */
export const UNKNOWN_QUERY_COST = 50;
export const MUTATION_COST = 10;
/** However the clock behaves, a call is not sent more often than this. */
const MAX_THROTTLED_ATTEMPTS = 10;

function costKey(document: string, variables: Record<string, unknown>): string {
  const sizes = Object.entries(variables).filter(([, value]) => typeof value === "number");
  return sizes.length ? `${document}\n${JSON.stringify(sizes)}` : document;
}

function isMutation(document: string): boolean {
  return /^\s*(?:#graphql\s+)?mutation\b/.test(document);
}

/**
 * Runs one Admin document and parses its data. Paced by the shop's budget when the client carries one; a THROTTLED
 * answer is waited out (the cost extension says how long: the requested cost less what is available, at the restore
 * rate) and the call sent again. A query is always safe to send again; a mutation only because Shopify refuses a
 * THROTTLED call before executing it (decision 0070). The total wait is bounded: past it, ShopifyBusyError.
 */
export async function runAdmin<Schema extends z.ZodType>(
  admin: AdminGraphqlClient,
  operationName: string,
  document: string,
  variables: Record<string, unknown>,
  dataSchema: Schema,
): Promise<z.infer<Schema>> {
  const pacing = admin.pacing ?? {};
  const clock = pacing.clock ?? realClock;
  const budget = pacing.budget ?? defaultBudget;
  const shop = pacing.shop;
  const deadline = clock.now() + (pacing.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const key = costKey(document, variables);
  const mutation = isMutation(document);

  let transportRetries = 0;
  for (let attempt = 1; ; attempt += 1) {
    let reserved = 0;
    let ticket: number | undefined;
    if (shop) {
      const estimate = requestedCosts.get(key) ?? (mutation ? MUTATION_COST : UNKNOWN_QUERY_COST);
      const reservation = await budget.reserve(shop, estimate, Math.max(0, deadline - clock.now()));
      if (!reservation.granted) throw new ShopifyBusyError(operationName, Math.max(1000, reservation.waitMs));
      reserved = estimate;
      ticket = reservation.ticket;
      if (reservation.waitMs > 0) {
        shopifyThrottleWait(reservation.waitMs / 1000);
        await clock.sleep(reservation.waitMs);
      }
    }
    let sent: Sent;
    const started = performance.now();
    try {
      sent = await send(admin, operationName, document, variables);
      logCall(operationName, shop, started, sent.throttled ? "throttled" : "ok");
    } catch (error) {
      logCall(operationName, shop, started, error instanceof AdminApiError ? error.kind : "transport");
      if (shop) await budget.settle(shop, reserved, undefined, undefined, ticket);
      // A read that got no answer at all (a connection reset under load) is sent once more; a mutation never is.
      if (error instanceof AdminTransportError && !mutation && transportRetries < 1) {
        transportRetries += 1;
        continue;
      }
      throw error;
    }
    const requested = sent.cost?.requestedQueryCost;
    if (typeof requested === "number" && requested > 0) requestedCosts.set(key, requested);
    const spent = sent.throttled ? 0 : (sent.cost?.actualQueryCost ?? undefined);
    if (shop) await budget.settle(shop, reserved, sent.cost?.throttleStatus, spent, ticket);

    if (!sent.throttled) {
      const parsed = dataSchema.safeParse(sent.data);
      if (!parsed.success) {
        throw new AdminApiError("shape", `${operationName}: unexpected response shape: ${parsed.error.message}`, sent.data);
      }
      return parsed.data;
    }

    const message = `${operationName}: Shopify throttled the request`;
    // A mutation is sent again only when Shopify's answer shows it was refused before running: THROTTLED, no data.
    if (mutation && sent.hasData) throw new AdminApiError("throttled", message, sent.errors);
    const status = sent.cost?.throttleStatus;
    if (status && typeof requested === "number" && requested > status.maximumAvailable) {
      throw new AdminApiError("graphql", `${operationName}: requests ${requested} points, more than this shop's bucket (${status.maximumAvailable})`, sent.errors);
    }
    const waitMs =
      status && typeof requested === "number" ? Math.max(0, Math.ceil(((requested - status.currentlyAvailable) / status.restoreRate) * 1000)) : 1000;
    if (clock.now() + waitMs > deadline || attempt >= MAX_THROTTLED_ATTEMPTS) {
      throw new ShopifyBusyError(operationName, Math.max(waitMs, 1000), sent.errors);
    }
    // With a shop, the next reservation waits (the budget now knows the bucket); without one, wait here.
    if (!shop) {
      shopifyThrottleWait(Math.max(waitMs, 1) / 1000);
      await clock.sleep(Math.max(waitMs, 1));
    }
  }
}

/** One line per Admin call: operation, shop, duration and outcome (never variables: they hold customer data). */
function logCall(operation: string, shop: string | undefined, started: number, outcome: string): void {
  const durationMs = Math.round(performance.now() - started);
  moduleLogger("shopify").info({ operation, shop, durationMs, outcome }, "shopify admin call");
}

/** For mutations: a non-empty userErrors list becomes an AdminApiError of kind user_errors. */
export function assertNoUserErrors(
  operationName: string,
  userErrors: ReadonlyArray<{ field?: readonly string[] | null; message: string }>,
): void {
  if (userErrors.length === 0) return;
  const text = userErrors
    .map((error) => (error.field?.length ? `${error.field.join(".")}: ${error.message}` : error.message))
    .join("; ");
  throw new AdminApiError("user_errors", `${operationName}: ${text}`, userErrors);
}
