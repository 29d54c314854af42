export * from "./budget.js";
export * from "./errors.js";
export * from "./record.js";
export * from "./server.js";
export * from "./types.js";
export * from "./upstream.js";
export * from "./usage-parse.js";
