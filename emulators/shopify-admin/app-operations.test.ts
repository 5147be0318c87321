/**
 * Contract between the app and the emulator: every GraphQL document exported by app/shopify/operations/*.ts
 * must pass the 2026-10 schema's validation, stay under Shopify's 1,000-point single-query limit, and (for
 * queries) run against the emulator without any error, in particular without hitting a field the emulator
 * does not implement. A failure here names the operation and is a real bug on one side or the other.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getNamedType, isNonNullType, Kind, NoDeprecatedCustomRule, parse, typeFromAST, validate, type OperationDefinitionNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_SINGLE_QUERY_COST, operationCost } from "./cost";
import { validateDocument } from "./execute";
import { adminSchema } from "./schema";
import { startTestEmulator, type TestEmulator } from "./test-helpers";

const operationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../app/shopify/operations");
const files = fs.existsSync(operationsDir)
  ? fs.readdirSync(operationsDir).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  : [];

interface Operation {
  file: string;
  exportName: string;
  document: string;
  /** The largest `$first` the app passes, when its module declares one (`PAGE_SIZE_LIMITS`); else 250. */
  maxPageSize: number;
}

const operations: Operation[] = [];
for (const file of files) {
  const module = (await import(path.join(operationsDir, file))) as Record<string, unknown>;
  const limits = (module.PAGE_SIZE_LIMITS ?? {}) as Record<string, number>;
  for (const [exportName, value] of Object.entries(module)) {
    if (typeof value === "string" && /^\s*(#graphql\s*)?(query|mutation)\b/.test(value)) {
      operations.push({ file, exportName, document: value, maxPageSize: limits[exportName] ?? 250 });
    }
  }
}

/** An order of the default seed with fulfillments, several fulfillment-order lines and a variant on each line. */
const SAMPLE_ORDER = "gid://shopify/Order/7100001003";

function sampleVariables(operation: OperationDefinitionNode, orderId = SAMPLE_ORDER): Record<string, unknown> {
  const schema = adminSchema();
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never);
    if (!type) continue;
    const named = getNamedType(type).name;
    const required = isNonNullType(type);
    if (named === "ID") variables[name] = /ids$/i.test(name) ? [orderId] : orderId;
    else if (named === "Int") variables[name] = name === "last" ? null : 5;
    else if (named === "String") variables[name] = required ? "" : null;
    else if (named === "Boolean") variables[name] = false;
    else if (required) throw new Error(`no sample value for $${name}: ${named}`);
  }
  return variables;
}

let t: TestEmulator;
beforeAll(async () => {
  // An unlimited bucket: these tests run some documents once per seeded order.
  t = await startTestEmulator({ bucket: { size: 1e9, restoreRate: 1e9 } });
});
afterAll(async () => {
  await t.emulator.close();
});

describe("the app's Admin operations against the emulator", () => {
  it("finds the app's operations (or there are none yet)", () => {
    expect(operations.every((op) => op.document.length > 0)).toBe(true);
  });

  for (const op of operations) {
    const label = `${op.file} ${op.exportName}`;
    it(`${label} is valid against the 2026-10 schema`, () => {
      expect(validateDocument(parse(op.document))).toEqual([]);
    });

    it(`${label} uses no deprecated field, argument or enum value of the 2026-10 schema`, () => {
      const deprecated = validate(adminSchema(), parse(op.document), [NoDeprecatedCustomRule]).map((error) => error.message);
      expect(deprecated).toEqual([]);
    });

    it(`${label} costs at most ${MAX_SINGLE_QUERY_COST} points (Shopify rejects more with MAX_COST_EXCEEDED)`, () => {
      const document = parse(op.document);
      const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      // A page size passed as a variable is priced at the worst case: the Admin API's 250, or the bound the module
      // declares for that document (and passes at most).
      const variables: Record<string, unknown> = {};
      for (const definition of operation.variableDefinitions ?? []) {
        if (/^(first|last)$/.test(definition.variable.name.value)) variables[definition.variable.name.value] = op.maxPageSize;
      }
      const cost = operationCost(adminSchema(), operation, {}, variables);
      expect(cost, `${label}: requested cost ${cost}`).toBeLessThanOrEqual(MAX_SINGLE_QUERY_COST);
    });

    if (/^\s*(#graphql\s*)?query\s+\w+Bulk\b/.test(op.document)) {
      // A bulk query template (no page sizes, "__SEARCH__" for the ids): run as a bulk operation, over every object.
      it(`${label} runs as a bulk operation without errors`, async () => {
        const query = op.document.replace(/^\s*#graphql\s*/, "").replace('"__SEARCH__"', '""');
        const run = "mutation($q: String!) { bulkOperationRunQuery(query: $q, groupObjects: false) { bulkOperation { id } userErrors { message } } }";
        const { body } = await t.post(run, { q: query });
        expect(body.errors).toBeUndefined();
        expect(body.data?.bulkOperationRunQuery.userErrors).toEqual([]);
      });
    } else if (/^\s*(#graphql\s*)?query\b/.test(op.document)) {
      it(`${label} runs without errors (every field it uses is emulated)`, async () => {
        const document = parse(op.document);
        const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
        const takesId = (operation.variableDefinitions ?? []).some((d) => getNamedType(typeFromAST(adminSchema(), d.type as never)!).name === "ID");
        // With an ID variable, run it on every order of the default seed: digital-only orders, custom items without
        // variant, cancelled and fulfilled orders reach different fields.
        const orders = takesId ? ((await t.gql("{ orders(first: 250) { nodes { id } } }")).orders.nodes as { id: string }[]).map((o) => o.id) : [SAMPLE_ORDER];
        for (const orderId of orders) {
          const { body } = await t.post(op.document, sampleVariables(operation, orderId));
          expect(body.errors, `${label} on ${orderId}`).toBeUndefined();
          expect(body.data).toBeTruthy();
        }
      });
    }
  }
});
