/**
 * One GraphQL request against the pinned schema: parse, validate with graphql-js's standard rules, price it,
 * charge the shop's bucket, execute with the emulator's strict field resolver, refund the unused cost.
 */
import {
  execute,
  getOperationAST,
  getVariableValues,
  type GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type ValidationRule,
} from "graphql";
import { freeExecutor, type BulkOperations } from "./bulk";
import { MAX_SINGLE_QUERY_COST, operationCost, type CostBucket } from "./cost";
import { notEmulated } from "./errors";
import { mutationRoot } from "./mutations";
import { adminSchema } from "./schema";
import type { ShopState } from "./state";
import { queryRoot, type EmulatorContext } from "./views";

/** The codes graphql-ruby (which serves Shopify's Admin API) puts on the matching validation errors. */
const RULE_CODES = new Map<ValidationRule, string>();
for (const rule of specifiedRules) {
  const code: Record<string, string> = {
    FieldsOnCorrectTypeRule: "undefinedField",
    KnownArgumentNamesRule: "argumentNotAccepted",
    ProvidedRequiredArgumentsRule: "missingRequiredArguments",
    KnownTypeNamesRule: "undefinedType",
    NoUnusedVariablesRule: "variableNotUsed",
    NoUndefinedVariablesRule: "variableNotDefined",
    VariablesInAllowedPositionRule: "variableMismatch",
    ValuesOfCorrectTypeRule: "argumentLiteralsIncompatible",
    ScalarLeafsRule: "selectionMismatch",
    KnownFragmentNamesRule: "undefinedFragment",
    NoUnusedFragmentsRule: "useAndDefineFragment",
    UniqueArgumentNamesRule: "argumentNotUnique",
    VariablesAreInputTypesRule: "variableRequiresValidType",
    KnownDirectivesRule: "undefinedDirective",
  };
  RULE_CODES.set(rule, code[rule.name] ?? "GRAPHQL_VALIDATION_FAILED");
}

export interface GraphqlRequest {
  query: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface ShopRuntime {
  state: ShopState;
  bucket: CostBucket;
  bulk?: BulkOperations;
}

type JsonError = { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> };

function toJsonError(error: GraphQLError, fallbackCode?: string): JsonError {
  const json = error.toJSON() as JsonError;
  const code = (json.extensions?.code as string | undefined) ?? fallbackCode;
  return { ...json, ...(code ? { extensions: { ...json.extensions, code } } : {}) };
}

export function validateDocument(document: DocumentNode): JsonError[] {
  const schema = adminSchema();
  const errors: JsonError[] = [];
  const seen = new Set<string>();
  for (const rule of specifiedRules) {
    for (const error of validate(schema, document, [rule], { maxErrors: 50 })) {
      const key = `${error.message}@${JSON.stringify(error.locations)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      errors.push(toJsonError(error, RULE_CODES.get(rule)));
    }
  }
  return errors;
}

/** The strict resolver: own properties of the source are the implemented fields; anything else errors. */
const strictResolver: GraphQLFieldResolver<unknown, EmulatorContext> = (source, args, context, info) => {
  if (source !== null && typeof source === "object" && Object.prototype.hasOwnProperty.call(source, info.fieldName)) {
    const value = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === "function" ? (value as (a: unknown, c: unknown, i: unknown) => unknown)(args, context, info) : value;
  }
  throw notEmulated(`Field ${info.parentType.name}.${info.fieldName}`);
};

export interface GraphqlResponse {
  status: number;
  body: Record<string, unknown>;
}

/**
 * A GraphQL error found before pricing (parse, validation, unknown operation, subscription, bad variables): HTTP 200
 * with `extensions.cost` like every other GraphQL answer, priced 0 (`actualQueryCost` null: nothing was executed),
 * and the bucket's current status. The bucket is not charged.
 */
function rejectedBeforePricing(bucket: CostBucket, errors: JsonError[]): GraphqlResponse {
  return {
    status: 200,
    body: { errors, extensions: { cost: { requestedQueryCost: 0, actualQueryCost: null, throttleStatus: bucket.status() } } },
  };
}

/** What a request's resolvers may do with the shop's bulk operations; a bulk query runs free of charge. */
function bulkAccess(runtime: ShopRuntime, now: () => number, changed: () => void): EmulatorContext["bulk"] {
  const bulk = runtime.bulk;
  if (!bulk) return undefined;
  return {
    run(query) {
      const context: EmulatorContext = { shop: runtime.state, now, changed, searchWarnings: [] };
      return bulk.runQuery(query, freeExecutor(queryRoot(context), context, strictResolver as GraphQLFieldResolver<unknown, unknown>));
    },
    byId: (id) => bulk.byId(id),
    current: () => bulk.current(),
  };
}

export function runGraphql(runtime: ShopRuntime, request: GraphqlRequest, now: () => number, changed: () => void): GraphqlResponse {
  const schema = adminSchema();
  const bucket = runtime.bucket;
  if (typeof request.query !== "string" || request.query.trim() === "") {
    // Shopify answers a missing query with HTTP 400 and no GraphQL envelope (hence no cost).
    return { status: 400, body: { errors: { query: "Required parameter missing or invalid" } } };
  }
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return rejectedBeforePricing(bucket, [toJsonError(error as GraphQLError, "parseError")]);
  }
  const validationErrors = validateDocument(document);
  if (validationErrors.length > 0) return rejectedBeforePricing(bucket, validationErrors);

  const operationName = typeof request.operationName === "string" ? request.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    const message = operationName ? `No operation named "${operationName}"` : "An operation name is required when the document has several operations";
    return rejectedBeforePricing(bucket, [{ message, extensions: { code: "OPERATION_NOT_FOUND" } }]);
  }
  if (operation.operation === "subscription") {
    return rejectedBeforePricing(bucket, [{ message: "Subscriptions are not supported", extensions: { code: "NOT_EMULATED" } }]);
  }
  const rawVariables = request.variables && typeof request.variables === "object" ? (request.variables as Record<string, unknown>) : {};
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables, { maxErrors: 50 });
  if (coerced.errors) {
    return rejectedBeforePricing(bucket, coerced.errors.map((error) => toJsonError(error, "INVALID_VARIABLE")));
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;

  const requested = operationCost(schema, operation, fragments, coerced.coerced);
  if (requested > MAX_SINGLE_QUERY_COST) {
    return {
      status: 200,
      body: {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_SINGLE_QUERY_COST}). Ask for smaller pages, or use a bulk operation.`,
            extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: MAX_SINGLE_QUERY_COST },
          },
        ],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() } },
      },
    };
  }
  if (!bucket.take(requested)) {
    return {
      status: 200,
      body: {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: bucket.status() } },
      },
    };
  }

  const context: EmulatorContext = { shop: runtime.state, now, changed, searchWarnings: [], bulk: bulkAccess(runtime, now, changed) };
  const rootValue = operation.operation === "mutation" ? mutationRoot(context) : queryRoot(context);
  const result = execute({
    schema,
    document,
    rootValue,
    contextValue: context,
    variableValues: rawVariables,
    operationName,
    fieldResolver: strictResolver,
  }) as ExecutionResult;
  if (result instanceof Promise) throw new Error("the emulator's resolvers are synchronous");

  const actual = Math.min(requested, operationCost(schema, operation, fragments, coerced.coerced, result.data ?? {}));
  bucket.refund(requested - actual);
  const body: Record<string, unknown> = {};
  if (result.errors?.length) body.errors = result.errors.map((error) => toJsonError(error, "INTERNAL_SERVER_ERROR"));
  body.data = result.data ?? null;
  const extensions: Record<string, unknown> = {
    cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: bucket.status() },
  };
  if (context.searchWarnings.length > 0) extensions.search = context.searchWarnings;
  body.extensions = extensions;
  return { status: 200, body };
}
