import { z } from "zod";
import type { AgentOutput, InstalledAgentDef, StartContext } from "./types.js";

/**
 * An installed agent written as data in the config file (`agents.NAME`): an npm package at an
 * exact version, the executable, and argument and environment templates. `{instruction}`,
 * `{model}`, `{provider}`, `{base_url}`, `{token}`, `{home}`, `{workdir}`, `{install}` and
 * `{node}` are filled in per trial. Its trajectory comes from the model gateway's record.
 */
export const installedAgentSpecSchema = z.strictObject({
  description: z.string().min(1).optional(),
  package: z.string().min(1),
  /** Exact: it is the cache key. */
  version: z.string().regex(/^\d+\.\d+\.\d+[-+.\w]*$/, "an exact version such as 1.2.3"),
  /** The executable, relative to the install folder (e.g. node_modules/pkg/bin/cli.js). */
  bin: z.string().min(1),
  /** Run `bin` with the sandbox's Node (a JavaScript entry point). */
  node: z.boolean().default(false),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()).default({}),
  /** Files written into the agent's home before it starts, path → content (templates too). */
  files: z.record(z.string(), z.string()).default({}),
});
export type InstalledAgentSpec = z.infer<typeof installedAgentSpecSchema>;

export function fillTemplate(t: string, c: StartContext): string {
  const values: Record<string, string> = {
    instruction: c.instruction,
    model: c.model,
    provider: c.provider,
    base_url: c.baseUrl,
    token: c.token,
    home: c.home,
    workdir: c.workdir,
    install: c.installDir,
    node: c.node,
  };
  return t.replace(/\{([a-z_]+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The definition a config-file entry stands for. */
export function defFromSpec(name: string, spec: InstalledAgentSpec): InstalledAgentDef {
  return {
    name,
    description: spec.description ?? `${spec.package}@${spec.version} (from the config file)`,
    install: { kind: "npm", package: spec.package, version: spec.version },
    bin: spec.bin,
    node: spec.node,
    args: (c) => spec.args.map((a) => fillTemplate(a, c)),
    env: (c) => Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, fillTemplate(v, c)])),
    files: (c) =>
      Object.entries(spec.files).map(([path, content]) => ({ path, content: fillTemplate(content, c) })),
    result: exitResult,
  };
}

/** Exit 0 is a finished run; anything else the agent's error. */
export function exitResult(o: AgentOutput): { selfTerminated: boolean; error?: string } {
  if (o.exitCode === 0) return { selfTerminated: true };
  return { selfTerminated: false, error: `exited ${o.exitCode}: ${o.stderr.trim().slice(-500)}` };
}
