export * from "./catalog.js";
export * from "./client.js";
export * from "./model-id.js";
export * from "./pricing.js";
export * from "./providers.js";
export * from "./retry.js";
export * from "./settings.js";
export * from "./usage.js";
