import path from "node:path";
import { parse, validate, type GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { loadAdminSchema } from "../shopify-schema/load";
import { findAppDocuments, findDocuments, type FoundDocument } from "./graphql-documents";

const schema = loadAdminSchema();

function errorsOf(document: FoundDocument): readonly GraphQLError[] {
  try {
    return validate(schema, parse(document.source));
  } catch (error) {
    return [error as GraphQLError];
  }
}

function describeFailure(document: FoundDocument, errors: readonly GraphQLError[]): string {
  return `${document.file}:${document.line}\n${errors.map((error) => `  - ${error.message}`).join("\n")}`;
}

const appDocuments = findAppDocuments(path.resolve(__dirname, "../app"));

describe("every GraphQL document in app/ is valid against the Admin API 2026-10 schema", () => {
  it("finds the app's documents", () => {
    expect(appDocuments.length).toBeGreaterThan(0);
  });

  it.each(appDocuments.map((document) => [`${document.file}:${document.line}`, document] as const))(
    "%s",
    (_name, document) => {
      const errors = errorsOf(document);
      expect(errors, describeFailure(document, errors)).toEqual([]);
    },
  );
});

describe("the validation itself can fail", () => {
  const wrong = findDocuments(
    "const Q = `#graphql\n query Bad { shop { nmae } orders(first: 1) { nodes { id totalPriceSetz } } }`;",
    "fixtures/bad.ts",
  );

  it("rejects a misspelled field, naming the document and the error", () => {
    expect(wrong).toHaveLength(1);
    const errors = errorsOf(wrong[0]!);
    const report = describeFailure(wrong[0]!, errors);
    expect(report).toContain("fixtures/bad.ts:1");
    expect(report).toContain('Cannot query field "nmae" on type "Shop"');
    expect(report).toContain('Cannot query field "totalPriceSetz" on type "Order"');
  });

  it("rejects a wrong argument type and a missing required argument", () => {
    const [document] = findDocuments('`#graphql\n query { order { id } orders(first: "ten") { nodes { id } } }`', "x.ts");
    const messages = errorsOf(document!).map((error) => error.message);
    expect(messages.some((message) => message.includes('argument "id" of type "ID!" is required'))).toBe(true);
    expect(messages.some((message) => message.includes("Int cannot represent non-integer value"))).toBe(true);
  });

  it("refuses interpolated documents", () => {
    expect(() => findDocuments("`#graphql\n query { ${fields} }`", "y.ts")).toThrow(/interpolation/);
  });
});
