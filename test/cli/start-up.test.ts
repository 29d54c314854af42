import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command, Help } from "commander";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandNamed } from "../../src/cli/commands/catalog.js";
import { registerCommands } from "../../src/cli/commands/index.js";
import { loadWorldSubcommands, worldSubcommandNamed } from "../../src/cli/commands/world-subcommands.js";
import { tempDir } from "../runner/helpers.js";
import { runCli as cli, ROOT } from "../support/cli-process.js";
import { modulesLoadedBy } from "../support/loaded-modules.js";

/** Every command, registered eagerly from each module. */
async function fullProgram(): Promise<Command> {
  const program = new Command();
  await registerCommands(program);
  return program;
}

/** Files and packages reached from `entry` by static imports (dynamic `import()` and `import type` left out). */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    for (const node of source.statements) {
      const isImport = ts.isImportDeclaration(node) && node.importClause?.isTypeOnly !== true;
      const isExport = ts.isExportDeclaration(node) && !node.isTypeOnly;
      if (!isImport && !isExport) continue;
      const spec = node.moduleSpecifier;
      if (spec === undefined || !ts.isStringLiteral(spec)) continue;
      if (spec.text.startsWith(".")) visit(resolve(dirname(file), spec.text.replace(/\.js$/, ".ts")));
      else if (!spec.text.startsWith("node:")) packages.add(spec.text);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => f.slice(ROOT.length + 1)).sort(), packages: [...packages].sort() };
}

describe("CLI start-up", () => {
  it("--version and -V print package.json's version", async () => {
    const { version } = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const [long, short] = await Promise.all([cli(["--version"]), cli(["-V"])]);
    expect(long).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(short).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("--help lists every command with the help line its module gives it", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    const help = new Help();
    const commands = (await fullProgram()).commands;
    expect(commands.length).toBeGreaterThan(5);
    for (const cmd of commands) {
      // The first line of the command's help row: its term, then the start of its description.
      const term = help.subcommandTerm(cmd);
      const firstWords = cmd.description().split(" ").slice(0, 3).join(" ");
      expect(stdout).toMatch(new RegExp(`^  ${escapeRegExp(term)} +${escapeRegExp(firstWords)}`, "m"));
    }
  });

  it("the catalog names every command, in order, with its module's term and description", async () => {
    const help = new Help();
    const real = (await fullProgram()).commands.map((c) => ({
      name: c.name(),
      term: help.subcommandTerm(c),
      description: c.description(),
    }));
    expect(COMMANDS.map(({ name, term, description }) => ({ name, term, description }))).toEqual(real);
  });

  it("run --help lists every option of run", async () => {
    const runCommand = (await fullProgram()).commands.find((c) => c.name() === "run");
    expect(runCommand).toBeDefined();
    const { code, stdout } = await cli(["run", "--help"]);
    expect(code).toBe(0);
    const flags = runCommand?.options.map((o) => o.flags) ?? [];
    expect(flags.length).toBeGreaterThan(10);
    for (const f of flags) expect(stdout).toContain(f);
  });

  it("the entry point reaches no command module and no package but commander before a command is chosen", () => {
    const { files, packages } = staticClosure(resolve(ROOT, "src/cli/main.ts"));
    expect(files).toContain("src/cli/commands/catalog.ts");
    expect(files.filter((f) => f.startsWith("src/cli/commands/") && !f.endsWith("catalog.ts"))).toEqual([]);
    expect(packages).toEqual(["commander"]);
    expect(files.length).toBeLessThan(8);
  });

  it("the config step, report and export reach neither the registries nor a model SDK", () => {
    // Every command runs the config step; the read-only ones are run often and should start fast.
    for (const entry of [
      "src/cli/apply-config.ts",
      "src/cli/commands/report.ts",
      "src/cli/commands/export.ts",
    ]) {
      const { files, packages } = staticClosure(resolve(ROOT, entry));
      expect(files, entry).not.toContain("src/registries.ts");
      expect(files, entry).not.toContain("src/models/client.ts");
      expect(
        packages.filter((p) => p === "ai" || p.startsWith("@ai-sdk/")),
        entry,
      ).toEqual([]);
    }
  });

  it("a run of a terminal task by a scripted agent loads no model SDK, transform or image library", async () => {
    // The model SDKs load with a job's first model call, the transforms with a scale command.
    const jobs = tempDir("start-up-run");
    const task = resolve(ROOT, "test/fixtures/tasks/seeded");
    const { code, stderr, modules } = await modulesLoadedBy([
      "run",
      task,
      "--agent",
      "nop",
      "--jobs-dir",
      jobs,
    ]);
    expect(code, stderr).toBe(0);
    expect(modules).toContain("dist/runner/run-trial.js");
    const heavy = modules.filter(
      (m) =>
        /node_modules\/(ai|@ai-sdk\/(?!provider\/)[^/]+|@opentelemetry\/[^/]+|pngjs)\//.test(m) ||
        m.startsWith("dist/scale/transforms/"),
    );
    expect(heavy).toEqual([]);
  });

  it("registering the follow agent (every run, worker and task command) loads neither the child builder nor a transform", () => {
    const { files, packages } = staticClosure(resolve(ROOT, "src/scale/agent/register.ts"));
    expect(files).not.toContain("src/scale/agent/follow-agent.ts");
    expect(
      files.filter((f) => f.startsWith("src/scale/transforms/") || f.startsWith("src/scale/child/")),
    ).toEqual([]);
    expect(packages).not.toContain("pngjs");
  });

  it("world loads only the subcommand module a command line names, and all of them for help", async () => {
    expect(worldSubcommandNamed(["world", "render", "--out", "check"])).toBe("render");
    expect(worldSubcommandNamed(["--config", "world", "world", "list", "x.yaml"])).toBe("list");
    expect(worldSubcommandNamed(["help", "world", "check"])).toBe("check");
    expect(worldSubcommandNamed(["run", "world"])).toBeUndefined();
    const all = (await fullProgram()).commands.find((c) => c.name() === "world")?.commands ?? [];
    const count = async (args: string[]): Promise<number> => (await loadWorldSubcommands(args)).length;
    expect(await count(["world", "render", "--scale", "2"])).toBe(0);
    expect(await count(["world", "check", "t.yaml"])).toBe(1);
    expect(await count(["world", "run", "t.yaml", "--team", "oracle"])).toBe(1);
    // Four of world.ts's own, and every module's one for help, an unknown name or none at all.
    for (const args of [["world"], ["world", "--help"], ["help", "world"], ["world", "chekc"]]) {
      expect(await count(args), args.join(" ")).toBe(all.length - 4);
    }
    const { code, stdout } = await cli(["world", "--help"]);
    expect(code).toBe(0);
    for (const c of all) expect(stdout).toMatch(new RegExp(`^  ${c.name()}\\b`, "m"));
  });

  it("finds the command a command line names", () => {
    expect(commandNamed(["--help"])).toBeUndefined();
    expect(commandNamed(["run", "--agent", "oracle"])).toBe("run");
    expect(commandNamed(["help", "report"])).toBe("report");
    expect(commandNamed(["-V"])).toBeUndefined();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
