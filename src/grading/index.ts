export * from "./reward.js";
export * from "./rubric.js";
export * from "./sealed-run-path.js";
export type * from "./types.js";
