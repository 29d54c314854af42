export * from "./answer.js";
export * from "./terminus-agent.js";
export * from "./tmux.js";
