/**
 * Test helpers of longhaul, for suites of plugins and for users' own tests: trial builders and
 * the sandbox provider conformance suite. The conformance suite imports vitest (a dev
 * dependency), so this entry point (`longhaul/testing`) is kept apart from the main one.
 *
 * @packageDocumentation
 */
export { type SyntheticOptions, syntheticTrials } from "./analysis/synthetic-trials.js";
export { makeTrial, type TrialSpec } from "./analysis/test-trial.js";
export { type ConformanceOptions, describeSandboxConformance } from "./sandbox/conformance.js";
