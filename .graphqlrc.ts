/**
 * Types for the app's Admin GraphQL documents, generated from the pinned 2026-10 schema in shopify-schema/.
 * `npm run graphql-codegen` first unpacks that schema to app/types/admin-2026-10.schema.json, which the preset
 * then reads instead of downloading one.
 */
import { ApiType, shopifyApiProject } from "@shopify/api-codegen-preset";

export default {
  schema: "./app/types/admin-2026-10.schema.json",
  documents: ["./app/**/*.{ts,tsx}", "!./app/generated/**"],
  projects: {
    default: shopifyApiProject({
      apiType: ApiType.Admin,
      apiVersion: "2026-10",
      documents: ["./app/**/*.{ts,tsx}", "!./app/generated/**", "!./app/**/*.test.{ts,tsx}"],
      outputDir: "./app/types",
    }),
  },
};
