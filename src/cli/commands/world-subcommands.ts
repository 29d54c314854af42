import type { Command } from "commander";
import type { RunFile } from "../../world/engine/session.js";
import { GLOBAL_WITH_VALUE } from "../global-options.js";

/** Registers one `world` subcommand on the `world` command (readRun parses a run file). */
export type RegisterWorldSubcommand = (world: Command, readRun: (file: string) => RunFile) => void;

/**
 * The `world` subcommands that live in modules of their own, in the order `world --help` lists
 * them. Some reach the runner or the model SDKs: a command line that names one loads only that
 * one, so `world render` or `world list` does not start up with all of them.
 */
const WORLD_SUBCOMMANDS: readonly { name: string; load: () => Promise<RegisterWorldSubcommand> }[] = [
  { name: "check", load: async () => (await import("./world-check.js")).registerWorldCheckCommand },
  { name: "list", load: async () => (await import("./world-list.js")).registerWorldListCommand },
  { name: "record", load: async () => (await import("./world-record.js")).registerWorldRecordCommand },
  { name: "augment", load: async () => (await import("./world-augment.js")).registerWorldAugmentCommand },
  {
    name: "baselines",
    load: async () => (await import("./world-baselines.js")).registerWorldBaselinesCommand,
  },
  { name: "run", load: async () => (await import("./world-run.js")).registerWorldRunCommand },
  { name: "cce", load: async () => (await import("./world-cce.js")).registerWorldCceCommand },
  { name: "judge", load: async () => (await import("./world-judge.js")).registerWorldJudgeCommand },
  { name: "chat", load: async () => (await import("./world-chat.js")).registerWorldChatCommand },
];

/** The subcommands world.ts defines itself: naming one loads none of the modules above. */
export const WORLD_OWN_SUBCOMMANDS: ReadonlySet<string> = new Set(["info", "render", "replay", "export"]);

/** The subcommand `args` (the whole command line after the program) names under `world`, if any. */
export function worldSubcommandNamed(args: readonly string[]): string | undefined {
  const words = args.filter((a, i) => !a.startsWith("-") && !GLOBAL_WITH_VALUE.has(args[i - 1] ?? ""));
  const [first, ...rest] = words[0] === "help" ? words.slice(1) : words;
  return first === "world" ? rest[0] : undefined;
}

/**
 * The registrations a command line needs: none for a subcommand of world.ts's own, the one it
 * names, or every one when it names none clearly (help, a typo), so help and suggestions see all.
 */
export async function loadWorldSubcommands(args?: readonly string[]): Promise<RegisterWorldSubcommand[]> {
  const name = args === undefined ? undefined : worldSubcommandNamed(args);
  if (name !== undefined && WORLD_OWN_SUBCOMMANDS.has(name)) return [];
  const named = WORLD_SUBCOMMANDS.filter((s) => s.name === name);
  return Promise.all((named.length > 0 ? named : WORLD_SUBCOMMANDS).map((s) => s.load()));
}
