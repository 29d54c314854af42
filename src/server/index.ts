export * from "./app.js";
export * from "./serve.js";
