/** How a problem reads on the order page, and which form field it marks. No server code. */
import type { Locale } from "../../i18n/locale";
import { formFieldForPath } from "../../labels/order-edit-fields";

export interface ShownProblem {
  code: string;
  path: string;
  message: { en: string; fr: string };
  fix: { en: string; fr: string };
}

/** The error text of each form field that has a problem (the first problem of a field wins). */
export function fieldErrors(problems: readonly ShownProblem[], locale: Locale): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const field = formFieldForPath(problem.path);
    if (field && !(field in errors)) errors[field] = `${problem.message[locale]} ${problem.fix[locale]}`;
  }
  return errors;
}
