/** Statuses shown in the label history (shared by server and UI code). */
export const HISTORY_STATUSES = ["created", "fulfilled", "fulfillment_failed", "needs_review", "pending", "rejected"] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];
