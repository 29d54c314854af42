export * from "./atomic-write.js";
export * from "./job-config.js";
export * from "./job-lock.js";
export * from "./job-store.js";
