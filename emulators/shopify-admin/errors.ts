import { GraphQLError, type GraphQLResolveInfo } from "graphql";

/** A field or argument that exists in the 2026-10 schema but that the emulator does not implement. */
export function notEmulated(what: string): GraphQLError {
  return new GraphQLError(`${what} is not emulated`, { extensions: { code: "NOT_EMULATED" } });
}

/** Throws when the request uses an argument of the field that the emulator ignores. */
export function rejectArguments(info: GraphQLResolveInfo, args: Record<string, unknown>, supported: readonly string[]): void {
  for (const [name, value] of Object.entries(args)) {
    if (supported.includes(name) || value === null || value === undefined) continue;
    const def = info.parentType.getFields()[info.fieldName]?.args.find((arg) => arg.name === name);
    if (def && def.defaultValue !== undefined && JSON.stringify(def.defaultValue) === JSON.stringify(value)) continue;
    throw notEmulated(`Argument ${info.parentType.name}.${info.fieldName}(${name})`);
  }
}
