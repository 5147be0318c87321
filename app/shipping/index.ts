export * from "./customs";
export * from "./map";
export * from "./money";
export * from "./phone";
export * from "./problems";
export * from "./settings";
export * from "./units";
export { formatReference as formatCustomReference } from "../labels/references";
