export * from "./blob-store.js";
export * from "./coordinator.js";
export * from "./pack.js";
export * from "./queue-status.js";
export * from "./task-bundle.js";
export * from "./trial-job.js";
export * from "./worker.js";
