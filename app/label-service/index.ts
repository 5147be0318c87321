export * from "./config";
export * from "./errors";
export * from "./mapping";
export * from "./token-cache";
export * from "./semaphore";
export * from "./client";
