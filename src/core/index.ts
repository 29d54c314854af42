export * from "./all-or-stop.js";
export * from "./canonical-json.js";
export * from "./errors.js";
export * from "./ids.js";
export * from "./package-root.js";
export * from "./rng.js";
export * from "./timer.js";
export * from "./trial-result.js";
export * from "./user-files.js";
// toml-source.ts is imported by path: most importers of this index never parse TOML, and the
// parser would load at every command's start-up.
export * from "./world-chat.js";
