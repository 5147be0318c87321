/** Label-service environments (shared by server and UI code). Staging is free; production labels are charged. */
export const LABEL_ENVIRONMENTS = ["staging", "production"] as const;
export type LabelEnvironment = (typeof LABEL_ENVIRONMENTS)[number];
