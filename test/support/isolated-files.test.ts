import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED_FILES } from "./isolated-files.js";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Code that leaves state behind in its process, or counts on a process no other file ran in
 * before: a file holding any of it runs in a fresh process (ISOLATED_FILES); the others share one.
 */
const NEEDS_OWN_PROCESS: readonly [string, RegExp][] = [
  // Building a CLI program (registerRunCommand(program)) adds to no registry.
  ["adds to a registry", /\bregister(?![A-Za-z]*Command\b)[A-Z][A-Za-z]*\(/],
  ["loads plugins or a config", /\b(loadPlugins|applyConfig)\(/],
  ["sets the pricing table", /\busePricing\(/],
  ["changes process.env", /process\.env(\.[A-Za-z_]+|\[[^\]]+\])\s*=[^=]|delete process\.env|vi\.stubEnv/],
  ["changes the working folder", /process\.chdir\(/],
  ["stubs globals or timers", /vi\.stubGlobal|useFakeTimers/],
  [
    "counts on the host-secret scan of a fresh process",
    /\/etc\/longhaul|unreadablePaths|maskHostSecrets|plantHostSecrets/,
  ],
  ["counts on a warning given once per process", /warnOnce|warned|about once/],
  // A spy the file never takes back mutes stderr for every later file in the process.
  [
    "spies on stderr and never puts it back",
    /^(?![\s\S]*(restoreAllMocks|mockRestore))[\s\S]*stderr, "write"\)/,
  ],
  // Transforms and model providers are added to only by registerTransform and plugins, found
  // above; the other registries also gain entries on demand (the CLI run in-process registers
  // scale agents and world kinds), so a file listing them sees what earlier files ran.
  [
    "lists a registry others add to on demand",
    /\blist(Agents|SandboxProviders|TrialKinds|TaskKinds|WorldTools|ReportRenderers|TeamAgents|WorldModifiers|WorldPredicates)\(/,
  ],
];

function testFiles(): string[] {
  const out: string[] = [];
  for (const top of ["src", "test"]) {
    for (const entry of readdirSync(join(ROOT, top), { recursive: true, encoding: "utf8" })) {
      if (entry.endsWith(".test.ts")) out.push(join(top, entry));
    }
  }
  return out.sort();
}

describe("test files that need a process of their own", () => {
  it("are all in ISOLATED_FILES", () => {
    const isolated = new Set(ISOLATED_FILES);
    const missing: string[] = [];
    for (const file of testFiles()) {
      if (isolated.has(file) || file === "test/support/isolated-files.test.ts") continue;
      // The file's own code: its helpers are written to undo what they change (a spy restored,
      // an env variable put back), and the leaky ones (usePricing) are matched where called.
      const text = readFileSync(join(ROOT, file), "utf8");
      const hit = NEEDS_OWN_PROCESS.find(([, re]) => re.test(text));
      if (hit !== undefined) missing.push(`${file}: ${hit[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it("name only files that exist", () => {
    expect(ISOLATED_FILES.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });

  it("finds what it looks for (a registration, an env change, a registry listing)", () => {
    const hits = (text: string): string[] =>
      NEEDS_OWN_PROCESS.filter(([, re]) => re.test(text)).map(([why]) => why);
    expect(hits("registerTransform(toy);")).toEqual(["adds to a registry"]);
    expect(hits("registerScaleCommand(program);")).toEqual([]);
    expect(hits("process.env.TMPDIR = '/dev/shm';")).toEqual(["changes process.env"]);
    expect(hits("if (process.env.CI === undefined) {}")).toEqual([]);
    expect(hits("for (const a of listAgents()) {}")).toEqual(["lists a registry others add to on demand"]);
    expect(hits("for (const t of listTransforms()) {}")).toEqual([]);
    const spy = 'vi.spyOn(process.stderr, "write").mockImplementation(() => true);';
    expect(hits(spy)).toEqual(["spies on stderr and never puts it back"]);
    expect(hits(`afterEach(() => vi.restoreAllMocks());\n${spy}`)).toEqual([]);
  });
});
