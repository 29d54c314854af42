export * from "./compare.js";
export * from "./external-results.js";
export * from "./group-metrics.js";
export * from "./published.js";
export * from "./stats.js";
export * from "./summarize.js";
export * from "./summary-types.js";
export * from "./synthetic-trials.js";
