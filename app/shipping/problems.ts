/** A problem found while preparing a label: named, located, explained in English and French, with a fix. */
export interface Problem {
  code: string;
  /** Where: a label-request field path ("recipient.zip", "cn23_data.products[1].country_code") or an order part. */
  path: string;
  orderName: string;
  severity: "blocking" | "warning";
  /** The facts the message is built from (order, field value, country...), for translation and tests. */
  params?: Record<string, string>;
  message: { en: string; fr: string };
  fix: { en: string; fr: string };
}

export function hasBlocking(problems: readonly Problem[]): boolean {
  return problems.some((problem) => problem.severity === "blocking");
}
