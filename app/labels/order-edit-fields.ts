/**
 * Where a problem shows on the order page: label-request paths ("recipient.zip", "cn23_data.products[1].unit_price")
 * to the form's field names ("recipient.zip", "cn23.products.1.unit_price"). No server code: the page imports it.
 */

/** The form field a problem path belongs to, or undefined when it is not a field of the page's form. */
export function formFieldForPath(path: string): string | undefined {
  const product = /^cn23_data\.products\[([0-9]+)\]\.(description|unit_price|weight|country_code|hs_code)$/.exec(path);
  if (product) return `cn23.products.${product[1]}.${product[2]}`;
  if (path === "cn23_data.category") return "cn23.category";
  if (path === "cn23_data.shipping_price") return "cn23.shipping_price";
  if (path === "carrier_name" || path === "carrier_service_name") return "service";
  if (/^recipient\.(firstname|lastname|company_name|address_line1|address_line2|zip|city|phone1|email)$/.test(path)) return path;
  if (["weight", "length", "width", "height", "description", "box"].includes(path)) return path;
  return undefined;
}

/** One entry per problem: the same code at the same place is listed once (the first one wins). */
export function uniqueProblems<T extends { code: string; path: string }>(problems: readonly T[]): T[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.code}|${problem.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The first problem of each place (a field has one message at a time). */
export function firstPerPath<T extends { path: string }>(problems: readonly T[]): T[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    if (seen.has(problem.path)) return false;
    seen.add(problem.path);
    return true;
  });
}
