/**
 * Query cost and the per-shop leaky bucket.
 *
 * Cost model (close to Shopify's published rules): scalars and enums 0; an object 1; a connection
 * 2 + pageSize x (cost of one node, the node itself counting 1); a plain list of objects with a `first`
 * argument first x (1 + children); each top-level mutation field 10. On abstract types, fragments on
 * different concrete types are alternatives (the maximum counts). The requested cost uses first/last; the
 * actual cost walks the response and counts what was really returned. The bucket is charged the requested
 * cost up front and refunded the difference, as on Shopify.
 */
import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

export const MUTATION_COST = 10;
export const MAX_SINGLE_QUERY_COST = 1000;

interface Walk {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

function argNumber(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return typeof value === "number" ? value : undefined;
  }
  return undefined;
}

function isConnection(type: GraphQLOutputType): boolean {
  const named = getNamedType(type);
  return isObjectType(named) && named.name.endsWith("Connection") && "pageInfo" in named.getFields();
}

function unwrapNonNull(type: GraphQLOutputType): GraphQLOutputType {
  return isNonNullType(type) ? type.ofType : type;
}

/**
 * Cost of a selection set. With `data` undefined: the requested (worst-case) cost. With data: the actual cost
 * of what was returned (a missing or null value costs nothing).
 */
function selectionCost(walk: Walk, set: SelectionSetNode, parent: GraphQLCompositeType, data: unknown, actual: boolean): number {
  let sum = 0;
  const alternatives = new Map<string, number>();
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      sum += fieldCost(walk, selection, parent, data, actual);
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.fragments[selection.name.value] : selection;
    if (!fragment) continue;
    const typeName = fragment.typeCondition?.name.value ?? parent.name;
    const type = walk.schema.getType(typeName) as GraphQLCompositeType | undefined;
    if (!type) continue;
    const cost = selectionCost(walk, fragment.selectionSet, type, data, actual);
    if (isAbstractType(parent) && typeName !== parent.name) {
      alternatives.set(typeName, (alternatives.get(typeName) ?? 0) + cost);
    } else {
      sum += cost;
    }
  }
  return sum + Math.max(0, ...alternatives.values());
}

function fieldCost(
  walk: Walk,
  node: FieldNode,
  parent: GraphQLCompositeType,
  data: unknown,
  actual: boolean,
): number {
  const name = node.name.value;
  if (name.startsWith("__")) return 0;
  const fields = "getFields" in parent ? parent.getFields() : {};
  const def = fields[name];
  if (!def) return 0;
  const named = getNamedType(def.type);
  if (isLeafType(named) || !node.selectionSet) return 0;
  const child = named as GraphQLCompositeType;
  const key = node.alias?.value ?? name;
  const value = actual ? (data as Record<string, unknown> | null | undefined)?.[key] : undefined;
  if (actual && (value === null || value === undefined)) return 0;
  const arg = (argName: string) =>
    argNumber(node.arguments?.find((a) => a.name.value === argName)?.value, walk.variables);

  if (isConnection(def.type)) {
    const connectionType = child as GraphQLObjectType;
    const connectionFields = connectionType.getFields();
    const perItem = (item: unknown) => {
      let best = 0;
      for (const selection of node.selectionSet?.selections ?? []) {
        if (selection.kind !== Kind.FIELD) continue;
        const field = selection.name.value;
        const innerType = connectionFields[field]?.type;
        if ((field !== "nodes" && field !== "edges") || !innerType || !selection.selectionSet) continue;
        const itemType = getNamedType(innerType) as GraphQLCompositeType;
        const cost = (field === "nodes" ? 1 : 0) + selectionCost(walk, selection.selectionSet, itemType, item, actual);
        best = Math.max(best, cost);
      }
      return best;
    };
    if (!actual) {
      const size = arg("first") ?? arg("last") ?? 0;
      return 2 + size * perItem(undefined);
    }
    const page = value as { nodes?: unknown[]; edges?: unknown[] };
    let nodesCost = 0;
    let edgesCost = 0;
    const aliasOf = (field: string) =>
      node.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === field);
    const nodesSel = aliasOf("nodes");
    const edgesSel = aliasOf("edges");
    const nodesKey = nodesSel?.kind === Kind.FIELD ? (nodesSel.alias?.value ?? "nodes") : "nodes";
    const edgesKey = edgesSel?.kind === Kind.FIELD ? (edgesSel.alias?.value ?? "edges") : "edges";
    const nodesList = (page as Record<string, unknown>)[nodesKey];
    const edgesList = (page as Record<string, unknown>)[edgesKey];
    if (Array.isArray(nodesList) && nodesSel?.kind === Kind.FIELD && nodesSel.selectionSet) {
      const itemType = getNamedType(connectionFields.nodes!.type) as GraphQLCompositeType;
      for (const item of nodesList) nodesCost += item === null ? 0 : 1 + selectionCost(walk, nodesSel.selectionSet, itemType, item, true);
    }
    if (Array.isArray(edgesList) && edgesSel?.kind === Kind.FIELD && edgesSel.selectionSet) {
      const itemType = getNamedType(connectionFields.edges!.type) as GraphQLCompositeType;
      for (const item of edgesList) edgesCost += selectionCost(walk, edgesSel.selectionSet, itemType, item, true);
    }
    return 2 + Math.max(nodesCost, edgesCost);
  }

  if (isListType(unwrapNonNull(def.type))) {
    if (!actual) {
      const size = arg("first") ?? 1;
      return size * (1 + selectionCost(walk, node.selectionSet, child, undefined, false));
    }
    return (value as unknown[]).reduce<number>(
      (sum, item) => sum + (item === null ? 0 : 1 + selectionCost(walk, node.selectionSet!, child, item, true)),
      0,
    );
  }
  return 1 + selectionCost(walk, node.selectionSet, child, value, actual);
}

export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  data?: unknown,
): number {
  const walk: Walk = { schema, fragments, variables };
  if (operation.operation === "mutation") {
    return operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD && !s.name.value.startsWith("__")).length * MUTATION_COST;
  }
  const root = schema.getQueryType();
  if (!root) return 0;
  return selectionCost(walk, operation.selectionSet, root, data, data !== undefined);
}

export interface BucketOptions {
  size: number;
  restoreRate: number;
}

/**
 * Each plan's bucket (`maximumAvailable`) and restore rate. The rates are Shopify's documented ones; the bucket sizes
 * are what stores on those plans report (20 seconds of restore). See PLATFORM-NOTES section 5 and decision 0073.
 */
export const PLAN_BUCKETS = {
  standard: { size: 2000, restoreRate: 100 },
  advanced: { size: 4000, restoreRate: 200 },
  plus: { size: 20000, restoreRate: 1000 },
} as const satisfies Record<string, BucketOptions>;
export type PlanName = keyof typeof PLAN_BUCKETS;
export const PLAN_NAMES = Object.keys(PLAN_BUCKETS) as PlanName[];

/** Shopify's Standard plan: 100 points per second; the bucket holds 2,000 points (20 seconds of restore). */
export const DEFAULT_BUCKET: BucketOptions = PLAN_BUCKETS.standard;

export class CostBucket {
  private available: number;
  private updatedAt: number;

  constructor(
    readonly options: BucketOptions,
    private readonly now: () => number,
  ) {
    this.available = options.size;
    this.updatedAt = now();
  }

  private refill(): void {
    const at = this.now();
    const elapsed = Math.max(0, at - this.updatedAt) / 1000;
    this.available = Math.min(this.options.size, this.available + elapsed * this.options.restoreRate);
    this.updatedAt = at;
  }

  /** Takes `cost` points if available; returns false (and takes nothing) otherwise. */
  take(cost: number): boolean {
    this.refill();
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }

  refund(points: number): void {
    this.refill();
    this.available = Math.min(this.options.size, this.available + Math.max(0, points));
  }

  status(): { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } {
    this.refill();
    return {
      maximumAvailable: this.options.size,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.options.restoreRate,
    };
  }
}
