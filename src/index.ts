/**
 * The public API of longhaul: run jobs, load and check tasks, summarize and render results, and
 * register sandbox providers, agents, model providers, report formats, environment transforms,
 * world team agents and world tools by name. Everything else
 * under src/ is internal and may change; docs/api.md describes this surface with examples.
 *
 * @packageDocumentation
 */

// Registries: one shape (register*(name, definition), get*(name), list*()) for each kind.
export {
  type AgentOutput,
  type InstalledAgentDef,
  installedAgent,
  type NpmInstall,
  type ScriptInstall,
  type StartContext,
  type TrajectoryMeta,
} from "./agents/installed/index.js";
export type { Trajectory } from "./agents/llm-loop/trajectory.js";
export type {
  Agent,
  AgentContext,
  AgentFactory,
  AgentRunResult,
  ModelEndpoint,
} from "./agents/types.js";
export { type Calibration, type CalibrationOptions, calibrate } from "./analysis/calibrate.js";
export { type CompareOptions, type Comparison, compareJobs, type TaskPair } from "./analysis/compare.js";
// Results.
export { type SummarizeOptions, summarize } from "./analysis/summarize.js";
export { type AnalysisTrial, type Summary, THRESHOLDS } from "./analysis/summary-types.js";
// Plugins and the config file.
export { type ConfigFile, defineConfig, type EffectiveConfig, loadConfig } from "./config.js";
// Running a job.
export { InfraError, UserError } from "./core/errors.js";
export type { Outcome, TrialResult } from "./core/trial-result.js";
export { type DistributedRunOptions, runDistributed } from "./distributed/coordinator.js";
export type { ModelProvider } from "./models/providers.js";
export { type LonghaulPlugin, loadPlugins, type PluginApi, type PluginSpec } from "./plugins.js";
export {
  type AgentDefinition,
  getAgent,
  getModelProvider,
  getReportRenderer,
  getSandboxProvider,
  getTeamAgent,
  getTransform,
  getWorldTool,
  listAgents,
  listModelProviders,
  listReportRenderers,
  listSandboxProviders,
  listTeamAgents,
  listTransforms,
  listWorldTools,
  type ModelProviderDefinition,
  type RegistryEntry,
  type ReportRendererDefinition,
  registerAgent,
  registerModelProvider,
  registerReportRenderer,
  registerSandboxProvider,
  registerTeamAgent,
  registerTransform,
  registerWorldTool,
  type SandboxProviderDefinition,
  type TeamAgentDefinitionEntry,
  type TransformDefinition,
} from "./registries.js";
export { renderCsv } from "./report/render-csv.js";
export { renderHtml } from "./report/render-html.js";
export { renderJson } from "./report/render-json.js";
export { renderMarkdown } from "./report/render-markdown.js";
export { renderTable } from "./report/render-table.js";
export type { RenderOptions, ReportRenderer } from "./report/renderers.js";
// Tasks.
export type { MutantResult } from "./runner/check-mutants.js";
export { type CheckOptions, checkTask, type TaskCheckResult } from "./runner/check-task.js";
export { buildJobConfig, checkJobChoices, type JobChoices } from "./runner/job-config.js";
export { type JobSummary, jobSummary } from "./runner/job-summary.js";
export { bundledTasksDir } from "./runner/package-root.js";
export { createProgress, type ProgressSink, silentProgress } from "./runner/progress.js";
export { type JobOutcome, type RunJobOptions, runJob } from "./runner/run-job.js";
export type { Sandbox, SandboxProvider, SandboxSpec } from "./sandbox/types.js";
export type {
  FileTree,
  GroundFact,
  RestoreStep,
  Transform,
  TransformInput,
  TransformOutput,
} from "./scale/types.js";
export type { JobConfig } from "./store/job-config.js";
export { JobStore } from "./store/job-store.js";
export { loadTask, loadTaskSet, loadTasks, type SkippedTask, type TaskSet } from "./task/load.js";
export type { Task } from "./task/types.js";
