export * from "./kit-path.js";
export * from "./reward.js";
export * from "./rubric.js";
export type * from "./types.js";
