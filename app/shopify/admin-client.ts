/**
 * The one way the app runs an Admin GraphQL document: through the library's Admin client (real Shopify, or the
 * emulator in demo mode), with the response checked by zod. The rest of the app never builds a GraphQL string.
 */
import type { z } from "zod";

/** The part of shopify-app-remix's AdminApiContext that we use (easy to fake in tests). */
export interface AdminGraphqlClient {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
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
}

interface GraphqlErrorLike {
  message?: string;
  extensions?: { code?: string };
}

function isThrottled(errors: GraphqlErrorLike[]): boolean {
  return errors.some((error) => error.extensions?.code === "THROTTLED");
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

export async function runAdmin<Schema extends z.ZodType>(
  admin: AdminGraphqlClient,
  operationName: string,
  document: string,
  variables: Record<string, unknown>,
  dataSchema: Schema,
): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await admin.graphql(document, { variables });
  } catch (thrown) {
    if (thrown instanceof Response) throw thrown; // auth redirects from the library
    const errors = errorsFromThrown(thrown);
    if (errors && isThrottled(errors)) {
      throw new AdminApiError("throttled", `${operationName}: Shopify throttled the request`, errors);
    }
    if (errors) {
      const messages = errors.map((error) => error.message).join("; ");
      throw new AdminApiError("graphql", `${operationName}: ${messages}`, errors);
    }
    throw new AdminApiError("http", `${operationName}: ${(thrown as Error)?.message ?? String(thrown)}`, thrown);
  }
  if (!response.ok) {
    throw new AdminApiError("http", `${operationName}: Shopify answered HTTP ${response.status}`);
  }
  const body = (await response.json()) as { data?: unknown; errors?: GraphqlErrorLike[] };
  if (body.errors?.length) {
    const kind = isThrottled(body.errors) ? "throttled" : "graphql";
    throw new AdminApiError(kind, `${operationName}: ${body.errors.map((e) => e.message).join("; ")}`, body.errors);
  }
  const parsed = dataSchema.safeParse(body.data);
  if (!parsed.success) {
    throw new AdminApiError("shape", `${operationName}: unexpected response shape: ${parsed.error.message}`, body.data);
  }
  return parsed.data;
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
