export * from "./load.js";
export * from "./merge.js";
export * from "./predicates.js";
export * from "./references.js";
export * from "./replay.js";
export * from "./schema.js";
export * from "./setup.js";
export * from "./verify.js";
