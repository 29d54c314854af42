export * from "./bwrap-provider.js";
export * from "./docker/docker-provider.js";
export * from "./registry.js";
export * from "./types.js";
