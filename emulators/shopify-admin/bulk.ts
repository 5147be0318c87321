/**
 * Bulk operations (`bulkOperationRunQuery`): the query runs against the shop's state outside the rate limit (no
 * points, like Shopify), its connections are read to the end, and the result is a JSONL file served at a URL: one
 * line per node, nested connections' nodes on their own lines with `__parentId` (Shopify's format). Up to 5
 * operations per shop at once (API 2026-01+); each is CREATED, then RUNNING, then COMPLETED `durationMs` after its
 * creation (on the emulator's clock). Queries: `bulkOperation(id:)`, `node(id:)`, `currentBulkOperation`.
 */
import { randomBytes } from "node:crypto";
import {
  execute,
  getNamedType,
  getOperationAST,
  isObjectType,
  isInterfaceType,
  Kind,
  parse,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type SelectionSetNode,
  type GraphQLFieldResolver,
} from "graphql";
import { MAX_PAGE_SIZE } from "./connection";
import { adminSchema } from "./schema";
import { gid, isoNow } from "./util";

/** Shopify allows this many bulk operations (queries and mutations together) per app and shop at once. */
export const MAX_CONCURRENT_BULK_OPERATIONS = 5;
const MAX_CONNECTIONS = 5;
const MAX_NESTING = 2;

interface BulkOperationState {
  id: number;
  query: string;
  createdAt: number;
  /** When it counts as finished (COMPLETED or FAILED). */
  doneAt: number;
  jsonl: string | null;
  objectCount: number;
  rootObjectCount: number;
  errorCode: string | null;
  canceled: boolean;
  fileKey: string;
}

export interface BulkUserError {
  field: string[] | null;
  message: string;
  code: "INVALID" | "LIMIT_REACHED" | "OPERATION_IN_PROGRESS";
}

type Loose = Record<string, unknown>;

/** Runs one query document with the emulator's resolvers and no cost (provided by execute.ts). */
export type FreeExecutor = (document: DocumentNode, variables: Record<string, unknown>) => ExecutionResult;

export class BulkOperations {
  private readonly operations: BulkOperationState[] = [];
  private nextId = 1;
  /** The emulator's own address (the result files are served from it); set once it listens. */
  baseUrl = "";

  constructor(
    private readonly now: () => number,
    private readonly durationMs: number,
  ) {}

  private status(op: BulkOperationState): string {
    if (op.canceled) return "CANCELED";
    if (this.now() >= op.doneAt) return op.errorCode ? "FAILED" : "COMPLETED";
    return this.now() > op.createdAt ? "RUNNING" : "CREATED";
  }

  running(): number {
    return this.operations.filter((op) => ["CREATED", "RUNNING"].includes(this.status(op))).length;
  }

  /** The JSONL result whose secret file key this is (the URL is the only credential, like Shopify's signed URLs). */
  file(key: string): string | undefined {
    const op = this.operations.find((o) => o.fileKey === key);
    return op && this.status(op) === "COMPLETED" && op.jsonl !== null ? op.jsonl : undefined;
  }

  view(op: BulkOperationState) {
    const status = this.status(op);
    const done = status === "COMPLETED" || status === "FAILED";
    const hasFile = done && op.jsonl !== null && op.objectCount > 0;
    return {
      __typename: "BulkOperation",
      id: gid("BulkOperation", op.id),
      status,
      errorCode: done ? op.errorCode : null,
      createdAt: isoNow(() => op.createdAt),
      completedAt: done ? isoNow(() => op.doneAt) : null,
      objectCount: String(done ? op.objectCount : 0),
      rootObjectCount: String(done ? op.rootObjectCount : 0),
      fileSize: hasFile ? String(Buffer.byteLength(op.jsonl ?? "")) : null,
      url: hasFile && status === "COMPLETED" ? `${this.baseUrl}/__bulk/${op.fileKey}.jsonl` : null,
      partialDataUrl: null,
      query: op.query,
      type: "QUERY",
    };
  }

  byId(id: number) {
    const op = this.operations.find((o) => o.id === id);
    return op ? this.view(op) : null;
  }

  current() {
    const op = this.operations.at(-1);
    return op ? this.view(op) : null;
  }

  runQuery(query: string, run: FreeExecutor): { bulkOperation: ReturnType<BulkOperations["view"]> | null; userErrors: BulkUserError[] } {
    const invalid = (message: string) => ({ bulkOperation: null, userErrors: [{ field: ["query"], message, code: "INVALID" as const }] });
    if (this.running() >= MAX_CONCURRENT_BULK_OPERATIONS) {
      return {
        bulkOperation: null,
        userErrors: [{ field: null, message: `A shop can run at most ${MAX_CONCURRENT_BULK_OPERATIONS} bulk operations at once.`, code: "LIMIT_REACHED" }],
      };
    }
    let plan: BulkPlan;
    try {
      plan = planBulkQuery(query);
    } catch (error) {
      return invalid((error as Error).message);
    }
    let lines: Loose[];
    try {
      lines = readAll(plan, run);
    } catch (error) {
      return invalid((error as Error).message);
    }
    const createdAt = this.now();
    const op: BulkOperationState = {
      id: this.nextId++,
      query,
      createdAt,
      doneAt: createdAt + this.durationMs,
      jsonl: lines.map((line) => JSON.stringify(line)).join("\n") + (lines.length ? "\n" : ""),
      objectCount: lines.length,
      rootObjectCount: lines.filter((line) => !("__parentId" in line)).length,
      errorCode: null,
      canceled: false,
      fileKey: randomBytes(12).toString("hex"),
    };
    this.operations.push(op);
    return { bulkOperation: this.view(op), userErrors: [] };
  }
}

interface ConnectionPlan {
  /** The field's response key in the result. */
  key: string;
  /** The nested connections selected on this connection's nodes. */
  children: ConnectionPlan[];
}

interface BulkPlan {
  document: DocumentNode;
  root: ConnectionPlan;
}

function isConnection(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith("Connection") && "pageInfo" in type.getFields();
}

/**
 * Checks the query the way Shopify does (one top-level connection, at most 5 connections, nested at most 2 deep) and
 * rewrites every connection to read whole pages (`first: 250`, `after` on the top one for the next page).
 */
function planBulkQuery(query: string): BulkPlan {
  const schema = adminSchema();
  const document = parse(query);
  const operation = getOperationAST(document);
  if (!operation || operation.operation !== "query") throw new Error("Bulk queries must be a single query operation.");
  if (operation.variableDefinitions?.length) throw new Error("Bulk queries cannot use variables.");
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  let connections = 0;

  const fieldsOf = (selectionSet: SelectionSetNode, parent: GraphQLNamedType): { node: FieldNode; def: GraphQLField<unknown, unknown> }[] => {
    const found: { node: FieldNode; def: GraphQLField<unknown, unknown> }[] = [];
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        if (def) found.push({ node: selection, def });
      } else {
        const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(selection.name.value)?.selectionSet;
        const condition = selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition?.name.value : fragments.get(selection.name.value)?.typeCondition.name.value;
        const type = (condition ? schema.getType(condition) : parent) ?? parent;
        if (set) found.push(...fieldsOf(set, type));
      }
    }
    return found;
  };

  /** The connection's node type and the selection set its nodes are read with (nodes { } or edges { node { } }). */
  const nodeSelections = (field: FieldNode, type: GraphQLNamedType): { sets: SelectionSetNode[]; nodeType: GraphQLNamedType } => {
    const sets: SelectionSetNode[] = [];
    let nodeType: GraphQLNamedType | undefined;
    for (const { node, def } of fieldsOf(field.selectionSet!, type)) {
      if (node.name.value === "nodes" && node.selectionSet) {
        sets.push(node.selectionSet);
        nodeType = getNamedType(def.type);
      }
      if (node.name.value === "edges" && node.selectionSet) {
        const edgeType = getNamedType(def.type);
        for (const inner of fieldsOf(node.selectionSet, edgeType)) {
          if (inner.node.name.value === "node" && inner.node.selectionSet) {
            sets.push(inner.node.selectionSet);
            nodeType = getNamedType(inner.def.type);
          }
        }
      }
    }
    if (!nodeType) throw new Error(`The connection ${field.name.value} must select nodes or edges { node }.`);
    return { sets, nodeType };
  };

  const plan = (field: FieldNode, type: GraphQLNamedType, depth: number): ConnectionPlan => {
    connections += 1;
    if (connections > MAX_CONNECTIONS) throw new Error(`Bulk queries cannot contain more than ${MAX_CONNECTIONS} connections.`);
    if (depth > MAX_NESTING) throw new Error(`Bulk queries cannot contain connections nested more than ${MAX_NESTING} levels deep.`);
    const { sets, nodeType } = nodeSelections(field, type);
    const children: ConnectionPlan[] = [];
    for (const set of sets) {
      const selected = fieldsOf(set, nodeType);
      const nested = selected.filter(({ def }) => isConnection(getNamedType(def.type)));
      if (nested.length && !selected.some(({ node }) => node.name.value === "id" && !node.alias)) {
        throw new Error(`The nodes of ${field.name.value} must select id to hold nested connections.`);
      }
      for (const { node, def } of nested) children.push(plan(node, getNamedType(def.type), depth + 1));
    }
    return { key: field.alias?.value ?? field.name.value, children };
  };

  const roots = fieldsOf(operation.selectionSet, schema.getQueryType()!);
  const rootField = roots[0];
  if (roots.length !== 1 || !rootField || !isConnection(getNamedType(rootField.def.type))) {
    throw new Error("Bulk queries must contain exactly one top-level connection field.");
  }
  const root = plan(rootField.node, getNamedType(rootField.def.type), 1);
  return { document: rewritePaging(document), root };
}

/** Every connection field reads 250 at a time; the top one takes `after: $__after` and reports its page info. */
function rewritePaging(document: DocumentNode): DocumentNode {
  const schema = adminSchema();
  const pagingArgs = new Set(["first", "last", "after", "before"]);
  const rewriteSet = (set: SelectionSetNode, parent: GraphQLNamedType, top: boolean): SelectionSetNode => ({
    ...set,
    selections: set.selections.map((selection) => {
      if (selection.kind !== Kind.FIELD || !selection.selectionSet) {
        if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = (selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent) ?? parent;
          return { ...selection, selectionSet: rewriteSet(selection.selectionSet, type, false) };
        }
        return selection;
      }
      const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!def) return selection;
      const type = getNamedType(def.type);
      const inner = rewriteSet(selection.selectionSet, type, false);
      if (!isConnection(type)) return { ...selection, selectionSet: inner };
      const args = (selection.arguments ?? []).filter((arg) => !pagingArgs.has(arg.name.value));
      args.push({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "first" }, value: { kind: Kind.INT, value: String(MAX_PAGE_SIZE) } });
      if (!top) return { ...selection, arguments: args, selectionSet: inner };
      args.push({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "after" }, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: "__after" } } });
      const pageInfo = parse("{ __pageInfo: pageInfo { hasNextPage endCursor } }").definitions[0];
      const extra = pageInfo?.kind === Kind.OPERATION_DEFINITION ? pageInfo.selectionSet.selections : [];
      return { ...selection, arguments: args, selectionSet: { ...inner, selections: [...inner.selections, ...extra] } };
    }),
  });
  return {
    ...document,
    definitions: document.definitions.map((definition) => {
      if (definition.kind !== Kind.OPERATION_DEFINITION) return definition;
      return {
        ...definition,
        variableDefinitions: [
          {
            kind: Kind.VARIABLE_DEFINITION,
            variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: "__after" } },
            type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "String" } },
          },
        ],
        selectionSet: rewriteSet(definition.selectionSet, schema.getQueryType()!, true),
      };
    }),
  };
}

function nodesOf(connection: unknown): Loose[] {
  if (!connection || typeof connection !== "object") return [];
  const value = connection as { nodes?: Loose[]; edges?: { node: Loose }[] };
  return value.nodes ?? value.edges?.map((edge) => edge.node) ?? [];
}

/** Flattens one node: its nested connections leave it and become lines of their own, with `__parentId`. */
function flatten(node: Loose, plan: ConnectionPlan, parentId: string | undefined, out: Loose[]): void {
  const line: Loose = {};
  for (const [key, value] of Object.entries(node)) if (!plan.children.some((child) => child.key === key)) line[key] = value;
  if (parentId !== undefined) line.__parentId = parentId;
  out.push(line);
  for (const child of plan.children) {
    for (const inner of nodesOf(node[child.key])) flatten(inner, child, String(node.id), out);
  }
}

function readAll(plan: BulkPlan, run: FreeExecutor): Loose[] {
  const out: Loose[] = [];
  let after: string | null = null;
  for (;;) {
    const result = run(plan.document, { __after: after });
    if (result.errors?.length) throw new Error(result.errors.map((error) => error.message).join("; "));
    const connection = (result.data as Loose | undefined)?.[plan.root.key] as Loose & { __pageInfo?: { hasNextPage: boolean; endCursor: string | null } };
    for (const node of nodesOf(connection)) flatten(node, plan.root, undefined, out);
    const page = connection?.__pageInfo;
    if (!page?.hasNextPage || !page.endCursor) return out;
    after = page.endCursor;
  }
}

/** A resolver-compatible helper for execute.ts: runs `document` free of charge with the given root and resolver. */
export function freeExecutor(rootValue: unknown, contextValue: unknown, fieldResolver: GraphQLFieldResolver<unknown, unknown>): FreeExecutor {
  return (document, variables) => {
    const result = execute({ schema: adminSchema(), document, rootValue, contextValue, variableValues: variables, fieldResolver }) as ExecutionResult;
    if (result instanceof Promise) throw new Error("the emulator's resolvers are synchronous");
    return result;
  };
}
