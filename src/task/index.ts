export * from "./checksum.js";
export * from "./config.js";
export * from "./host-tools.js";
export * from "./kinds.js";
export * from "./load.js";
export * from "./mutants.js";
export type * from "./types.js";
export * from "./verifier-kit.js";
