export * from "./address";
export * from "./address-problems";
export * from "./customs";
export * from "./fulfillment-orders";
export * from "./map";
export * from "./money";
export * from "./phone";
export * from "./problem-texts";
export * from "./problems";
export * from "./services";
export * from "./settings";
export * from "./units";
/** `<YYYYMMDD>-<counter>`; the purchase layer allocates the counter, the mapper takes the result as input. */
export { formatReference as formatCustomReference } from "../labels/references";
