export * from "./check-task.js";
export * from "./package-root.js";
export * from "./progress.js";
export * from "./run-job.js";
export * from "./run-planned-trial.js";
export * from "./run-trial.js";
export * from "./trial-plan.js";
