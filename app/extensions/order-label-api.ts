/**
 * The order-details action's backend contract (`GET|POST /api/orders/:id/label`): what the extension shows, already
 * in the caller's language. Browser-safe: types only; the extension imports them.
 */

/** ready: Create label can be pressed; blocked: problems first; labelled: a label is stored and nothing is left to
 * ship; pending: a purchase is under way or its outcome is unknown (the app settles it); nothing_to_ship: no open
 * fulfilment and no label from the app. */
export type OrderLabelState = "ready" | "blocked" | "labelled" | "pending" | "nothing_to_ship";

export interface OrderLabelSummary {
  orderId: string;
  orderName: string;
  environment: "staging" | "production";
  state: OrderLabelState;
  /** The label as it would be bought; null when the order cannot be mapped at all. */
  draft: {
    recipient: { name: string; lines: string[]; country: string };
    parcel: { box: string | null; weightGrams: number | null };
    service: string | null;
    customsRequired: boolean;
  } | null;
  /** Blocking problems (each with its fix), in the caller's language. */
  problems: { message: string; fix: string }[];
  /** Why the order is pending, in the caller's language. */
  note: string | null;
  labels: { id: string; trackingNumber: string; trackingUrl: string | null }[];
}

export type CreateLabelAnswer =
  | { outcome: "labelled"; alreadyLabelled: boolean; label: { id: string; trackingNumber: string; trackingUrl: string | null }; note: string | null }
  | { outcome: "blocked"; problems: { message: string; fix: string }[] }
  | { outcome: "refused"; retryable: boolean; message: string }
  | { outcome: "pending"; message: string };
