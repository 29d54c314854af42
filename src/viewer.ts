/**
 * The job viewer for embedding (`longhaul/viewer`): the same app `longhaul view` serves. Kept
 * apart from the main entry point so scripts that only run and report do not load the web stack.
 *
 * @packageDocumentation
 */
export { createViewerApp, type ViewerApp, type ViewerOptions } from "./server/app.js";
export { type RunningViewer, type ServeOptions, startViewer } from "./server/serve.js";
