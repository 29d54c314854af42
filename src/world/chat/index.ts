export * from "./classify.js";
export * from "./labeller.js";
export * from "./lines.js";
export * from "./model-labeller.js";
export * from "./timeline.js";
export * from "./world-chat.js";
