/**
 * The problems the labelling unit itself finds (not the mapper's): an order Shopify no longer knows, a box that is not
 * one of the shop's, an additional label with no first one or from a page that is out of date. Texts in the one
 * catalogue (app/shipping/problem-texts.ts).
 */
import { problem } from "../shipping/problem-texts";
import type { Problem } from "../shipping/problems";

type LabelProblemCode = "order_not_found" | "box_unknown" | "no_first_label" | "page_out_of_date" | "location_nothing_to_ship";

export function labelProblem(code: LabelProblemCode, input: { orderName: string; params?: Record<string, string> }): Problem {
  return problem(code, { path: code === "box_unknown" ? "box" : "order", orderName: input.orderName, ...(input.params ? { params: input.params } : {}) });
}
