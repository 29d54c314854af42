export * from "./cast.js";
export * from "./client-factory.js";
export * from "./loop.js";
export * from "./options.js";
export * from "./text-cap.js";
export * from "./trajectory.js";
