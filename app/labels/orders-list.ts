/** The orders list's tabs and destination filter values, shared by the server and the page (no server code here). */
import type { DestinationZone } from "../shipping/customs";
import type { LabelStatusGroup } from "./status";

export const LIST_TABS = ["all", "unlabelled", "attention", "labelled"] as const satisfies readonly ("all" | LabelStatusGroup)[];
export type ListTab = (typeof LIST_TABS)[number];
export const ZONES = ["domestic", "eu", "world"] as const satisfies readonly DestinationZone[];
