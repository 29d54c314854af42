import type { Command } from "commander";
import { GLOBAL_WITH_VALUE } from "../global-options.js";

/**
 * Every top-level command's name, help line and module. `longhaul --help` and `--version` read
 * only this list; a command's module (and everything it imports) loads when that command runs or
 * shows its own help. test/cli/start-up.test.ts checks each entry against the real command.
 */
export interface CommandEntry {
  name: string;
  /** The command as the top-level help lists it: name, `[options]`, arguments. */
  term: string;
  description: string;
  /** Runs agents, so the agents of layers above `agents` must be registered first. */
  runsAgents: boolean;
  /** `args`: the command line after the program, for a command that loads only the parts it names. */
  load: (args: readonly string[]) => Promise<(program: Command) => void>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "config",
    term: "config",
    description: "the configuration file: show the effective settings",
    runsAgents: false,
    load: async () => (await import("./config.js")).registerConfigCommand,
  },
  {
    name: "dataset",
    term: "dataset",
    description: "the dataset as a whole: calibrate task difficulty from results",
    runsAgents: false,
    load: async () => (await import("./dataset.js")).registerDatasetCommand,
  },
  {
    name: "export",
    term: "export",
    description: "export a job's results for other tools",
    runsAgents: false,
    load: async () => (await import("./export.js")).registerExportCommand,
  },
  {
    name: "images",
    term: "images",
    description: "container images: build, bootstrap, cache, load",
    runsAgents: false,
    load: async () => (await import("./images.js")).registerImagesCommand,
  },
  {
    name: "models",
    term: "models [options]",
    description: "list model providers, their credentials status and the pricing table",
    runsAgents: false,
    load: async () => (await import("./models.js")).registerModelsCommand,
  },
  {
    name: "queue",
    term: "queue",
    description: "the distributed trial queue (see docs/distributed.md)",
    runsAgents: false,
    load: async () => (await import("./queue.js")).registerQueueCommand,
  },
  {
    name: "report",
    term: "report [options] [jobs...]",
    description:
      "metrics per agent × model: Pass@1 at R ≥ 0.95 and R = 1.0, mean R, near-misses, false finishes, …",
    runsAgents: false,
    load: async () => (await import("./report.js")).registerReportCommand,
  },
  {
    name: "compare",
    term: "compare [options] [jobs...]",
    description:
      "compare two jobs task by task, with a paired bootstrap interval on the difference in mean R",
    runsAgents: false,
    // report.ts registers both report and compare.
    load: async () => (await import("./report.js")).registerReportCommand,
  },
  {
    name: "run",
    term: "run [options] [paths...]",
    description: "run agents on tasks (default: the bundled tasks) and record every trial",
    runsAgents: true,
    load: async () => (await import("./run.js")).registerRunCommand,
  },
  {
    name: "scale",
    term: "scale [options] [task]",
    description: "make verified, harder children of a task by transforming its environment (RES)",
    runsAgents: true,
    load: async () => (await import("./scale.js")).registerScaleCommand,
  },
  {
    name: "task",
    term: "task",
    description: "author and check tasks",
    runsAgents: true,
    load: async () => (await import("./task.js")).registerTaskCommand,
  },
  {
    name: "view",
    term: "view [options]",
    description: "browse jobs, trials, trajectories and recordings in a local web page",
    runsAgents: false,
    load: async () => (await import("./view.js")).registerViewCommand,
  },
  {
    name: "worker",
    term: "worker [options]",
    description: "take trials from a Redis queue (run --queue) and run them until stopped",
    // It runs trials of any agent, the scale layer's included.
    runsAgents: true,
    load: async () => (await import("./worker.js")).registerWorkerCommand,
  },
  {
    name: "world",
    term: "world",
    description: "The AgentWorld game world: content, rendering and replays",
    runsAgents: false,
    load: async (args) => (await import("./world.js")).worldCommandFor(args),
  },
];

/** The command a command line names: its first word that is not an option (`help X` names X). */
export function commandNamed(args: readonly string[]): string | undefined {
  // The global options that take a value (`--config PATH`, `--plugin PATH`) are skipped with it.
  const words = args.filter((a, i) => !a.startsWith("-") && !GLOBAL_WITH_VALUE.has(args[i - 1] ?? ""));
  return words[0] === "help" ? words[1] : words[0];
}
