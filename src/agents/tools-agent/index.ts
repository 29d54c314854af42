export * from "./tools.js";
export * from "./tools-agent.js";
