export * from "./closure.js";
export * from "./counterfactual.js";
export * from "./information.js";
export * from "./log.js";
export * from "./metrics.js";
export * from "./shapley.js";
export * from "./witnesses.js";
export * from "./world-cce.js";
