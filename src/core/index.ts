export * from "./canonical-json.js";
export * from "./errors.js";
export * from "./ids.js";
export * from "./rng.js";
export * from "./trial-result.js";
