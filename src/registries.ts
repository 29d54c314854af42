import {
  createAgent,
  listAgents as listAgentEntries,
  registerAgent as registerAgentEntry,
} from "./agents/registry.js";
import type { Agent, AgentFactory } from "./agents/types.js";
import {
  getModelProvider as getModelProviderEntry,
  listModelProviders as listModelProviderEntries,
  type ModelProvider,
  registerModelProvider as registerModelProviderEntry,
} from "./models/providers.js";
import {
  getReportRenderer as getReportRendererEntry,
  listReportRenderers as listReportRendererNames,
  type ReportRenderer,
  registerReportRenderer as registerReportRendererEntry,
} from "./report/renderers.js";
import {
  getSandboxProvider as getSandboxProviderEntry,
  listSandboxProviders as listSandboxProviderNames,
  registerSandboxProvider as registerSandboxProviderEntry,
  sandboxProviderDescription,
} from "./sandbox/registry.js";
import type { SandboxProvider } from "./sandbox/types.js";
import {
  getTransform as getTransformEntry,
  listTransforms as listTransformEntries,
  registerTransform as registerTransformEntry,
} from "./scale/transforms/registry.js";
import type { Transform } from "./scale/types.js";
import {
  getTeamAgent as getTeamAgentEntry,
  listTeamAgents as listTeamAgentEntries,
  registerTeamAgent as registerTeamAgentEntry,
} from "./world/team/registry.js";
import type { TeamAgentDefinition } from "./world/team/types.js";
import {
  getWorldTool as getWorldToolEntry,
  listWorldTools as listWorldToolEntries,
  registerWorldTool as registerWorldToolEntry,
  type WorldTool,
  type WorldToolDefinition,
} from "./world/tools/registry.js";

// One shape for every registry of the public API: register*(name, definition), get*(name) and
// list*(). The registries themselves grew apart (an agent takes a description argument, a model
// provider carries its own name); this facade keeps them as they are and gives users one form.

/** One registered entry as list*() reports it. */
export interface RegistryEntry {
  /** The name it is registered (and selected) under. */
  name: string;
  /** A one-line description. */
  description: string;
}

/** A sandbox provider's definition: `create` returns a fresh provider for each job. */
export interface SandboxProviderDefinition {
  /** A one-line description (shown in lists). */
  description: string;
  /** Makes a fresh provider. */
  create: () => SandboxProvider;
}

/** An agent's definition: `create` makes an agent from its key=value options. */
export interface AgentDefinition {
  /** A one-line description (shown by `longhaul agents`-style lists). */
  description: string;
  /** Makes an agent; throws a UserError on bad options. */
  create: AgentFactory;
  /** The agent drives a model, so a job with it needs at least one `provider:model`. */
  needsModel?: boolean;
}

/** A model provider's definition: everything of a ModelProvider but the name it is registered under. */
export type ModelProviderDefinition = Omit<ModelProvider, "name">;

/** A report format's definition (the renderer itself). */
export type ReportRendererDefinition = ReportRenderer;

/**
 * Registers (or replaces) a sandbox provider, selected by name in a job's config (`sandbox`).
 * The name is lowercase letters, digits and `-`.
 */
export function registerSandboxProvider(name: string, definition: SandboxProviderDefinition): void {
  registerSandboxProviderEntry(name, definition.create, definition.description);
}

/** A fresh sandbox provider by name (default "bwrap"); unknown names are a UserError listing the known ones. */
export function getSandboxProvider(name?: string): SandboxProvider {
  return getSandboxProviderEntry(name);
}

/** The registered sandbox providers, by name. */
export function listSandboxProviders(): RegistryEntry[] {
  return listSandboxProviderNames().map((name) => ({ name, description: sandboxProviderDescription(name) }));
}

/** Registers (or replaces) an agent, selected by name in a job's `agents`. */
export function registerAgent(name: string, definition: AgentDefinition): void {
  registerAgentEntry(name, definition.description, definition.create, {
    needsModel: definition.needsModel === true,
  });
}

/** A new agent by name, made with its options; unknown names are a UserError listing the known ones. */
export function getAgent(name: string, options: Record<string, string> = {}): Agent {
  return createAgent(name, options);
}

/** The registered agents, by name. */
export function listAgents(): RegistryEntry[] {
  return listAgentEntries();
}

/** Registers (or replaces) a model provider: model ids `name:model` then reach models through it. */
export function registerModelProvider(name: string, definition: ModelProviderDefinition): void {
  registerModelProviderEntry({ ...definition, name });
}

/** A model provider by name; unknown names are a UserError listing the known ones. */
export function getModelProvider(name: string): ModelProvider {
  return getModelProviderEntry(name);
}

/** The registered model providers, by name. */
export function listModelProviders(): RegistryEntry[] {
  return listModelProviderEntries()
    .map((p) => ({ name: p.name, description: p.description }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Registers (or replaces) a report format, selected by name (`longhaul report --format NAME`). */
export function registerReportRenderer(name: string, definition: ReportRendererDefinition): void {
  registerReportRendererEntry(name, definition);
}

/** A report renderer by format name; unknown names are a UserError listing the known ones. */
export function getReportRenderer(name: string): ReportRenderer {
  return getReportRendererEntry(name);
}

/** The registered report formats, built-in ones first. */
export function listReportRenderers(): RegistryEntry[] {
  return listReportRendererNames().map((name) => ({
    name,
    description: getReportRendererEntry(name).description,
  }));
}

/** An environment transform's definition (RES): everything of a Transform but its name. */
export type TransformDefinition<P = unknown> = Omit<Transform<P>, "name">;

/**
 * Registers (or replaces) an environment transform for `longhaul scale`: the planner may then bind
 * it like the built-in ones (in the `full` library, and in `basic` when `basic` is true). The name
 * is lowercase letters, digits and `-`.
 */
export function registerTransform<P>(name: string, definition: TransformDefinition<P>): void {
  registerTransformEntry<P>({ ...definition, name });
}

/** A transform by name; unknown names are a UserError listing the known ones. */
export function getTransform(name: string): Transform<unknown> {
  return getTransformEntry(name);
}

/** The registered transforms, by name. */
export function listTransforms(): RegistryEntry[] {
  return listTransformEntries().map((t) => ({ name: t.name, description: t.summary }));
}

/** A world team agent's definition (plays every agent of a world task's team): all but its name. */
export type TeamAgentDefinitionEntry = Omit<TeamAgentDefinition, "name">;

/**
 * Registers a team agent for world tasks, selected by name like an agent
 * (`longhaul run world-tasks --agent NAME`). A second, different one of a taken name is an error.
 */
export function registerTeamAgent(name: string, definition: TeamAgentDefinitionEntry): void {
  registerTeamAgentEntry({ ...definition, name });
}

/** A team agent by name; unknown names are a UserError listing the known ones. */
export function getTeamAgent(name: string): TeamAgentDefinition {
  return getTeamAgentEntry(name);
}

/** The registered team agents, by name. */
export function listTeamAgents(): RegistryEntry[] {
  return listTeamAgentEntries().map((t) => ({ name: t.name, description: t.description }));
}

/**
 * Registers a world tool (name, zod args, description, handler over the step's draft state):
 * `step` dispatches calls to it by name, for agents whose role allows it. A second, different
 * tool of a taken name is an error; names are lowercase snake_case.
 */
export function registerWorldTool<A>(name: string, definition: Omit<WorldToolDefinition<A>, "name">): void {
  registerWorldToolEntry<A>({ ...definition, name });
}

/** A world tool by name, or undefined. */
export function getWorldTool(name: string): WorldTool | undefined {
  return getWorldToolEntry(name);
}

/** The registered world tools (the 13 built-ins first), by name. */
export function listWorldTools(): RegistryEntry[] {
  return listWorldToolEntries().map((t) => ({ name: t.name, description: t.description }));
}
