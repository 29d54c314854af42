import { existsSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { Command } from "commander";
import pLimit from "p-limit";
import pc from "picocolors";
import { UserError } from "../../core/index.js";
import {
  bundledTasksDir,
  checkMutants,
  checkTask,
  describeMutant,
  type MutantStop,
  type TaskCheckResult,
} from "../../runner/index.js";
import { getSandboxProvider } from "../../sandbox/registry.js";
import {
  checkHostTools,
  describeKitStatus,
  loadTaskSet,
  MIN_MUTANTS,
  readKit,
  type Task,
  updateKit,
} from "../../task/index.js";
import { CATEGORIES } from "../../task/scaffold/categories.js";
import { scaffoldTask } from "../../task/scaffold/scaffold.js";
import { nonNegativeInt, positiveInt, positiveNumber, writeJson } from "../options.js";
import { registerTaskHarborCheck } from "./task-harbor.js";

interface CheckOptions {
  json?: boolean;
  seeds: number;
  concurrency: number;
  sandbox: string;
  timeoutMultiplier: number;
  quick?: boolean;
  mutants: boolean;
  mutantsOnly?: boolean;
  fullGrading?: boolean;
  minMutants?: number;
}

export function registerTaskCommand(program: Command): void {
  const task = program.command("task").description("author and check tasks");
  task
    .command("new")
    .description(
      "scaffold a task (rubric, Python grader on the verifier kit, stress cases, solve.sh, partial.sh)",
    )
    .argument("<path>", "folder to create; its name is the task name")
    .option("--category <c>", `one of: ${CATEGORIES.join(", ")}`, "software-engineering")
    .action((path: string, opts: { category: string }) => {
      const dir = scaffoldTask(path, opts.category);
      process.stdout.write(`${dir}\n`);
      process.stderr.write(`next: edit it, then run: longhaul task check ${path}\n`);
    });
  task
    .command("kit-update")
    .description(
      "rewrite each task's tests/lh.py with the current verifier kit (an edited copy needs --force)",
    )
    .argument("<tasks...>", "task folders")
    .option("--force", "overwrite an edited (or newer) copy too")
    .action((paths: string[], opts: { force?: boolean }) => {
      const kit = readKit();
      for (const p of paths) {
        const tests = join(resolve(p), "tests");
        if (!existsSync(tests) || !statSync(tests).isDirectory())
          throw new UserError(`${p}: no tests/ folder; is it a task folder?`);
      }
      for (const p of paths) {
        try {
          const u = updateKit(join(resolve(p), "tests"), opts.force === true, kit);
          const line = u.written
            ? `updated ${u.file} to kit version ${kit.version} (was: ${u.from.state}${u.from.version === null ? "" : `, version ${u.from.version}`})`
            : describeKitStatus(u.from);
          process.stdout.write(`${line}\n`);
        } catch (e) {
          if (!(e instanceof UserError)) throw e;
          process.stderr.write(`refused: ${e.message}\n`);
          process.exitCode = 1;
        }
      }
    });
  registerTaskHarborCheck(task);
  task
    .command("check")
    .description(
      "check tasks: oracle R = 1.0, nop ≤ 0.05, partial in (0.2, 0.8), every mutant < 0.95, deterministic verifier",
    )
    .argument("[paths...]", "task or dataset folders (default: the bundled tasks)")
    .option("--json", "print the results as JSON")
    .option("--seeds <n>", "seeds per agent", positiveInt("--seeds"), 5)
    .option("-n, --concurrency <n>", "tasks checked at once", positiveInt("-n"), 2)
    .option(
      "--quick",
      "oracle, nop and each mutant on the first seed, the partial on the last and re-run there",
    )
    .option("--no-mutants", "do not run solution/mutants/")
    .option("--mutants-only", "run only the mutants (each on every seed), no other check")
    .option(
      "--full-grading",
      "grade every mutant run in full (default: the first seed in full, later seeds until R < 0.95 is certain)",
    )
    .option(
      "--min-mutants <n>",
      `fewer mutants fail a task (default: ${MIN_MUTANTS} for a bundled task, else 0)`,
      nonNegativeInt("--min-mutants"),
    )
    .option("--sandbox <name>", "sandbox provider", "bwrap")
    .option(
      "--timeout-multiplier <x>",
      "scale every phase timeout",
      positiveNumber("--timeout-multiplier"),
      1,
    )
    .action(async (paths: string[], opts: CheckOptions) => {
      const roots = paths.length > 0 ? paths.map((p) => resolve(p)) : [bundledTasksDir()];
      const { tasks, skipped } = await loadTaskSet(roots);
      const firstSkipped = skipped[0];
      // One task that does not load: its own error (file, line, field) is the whole answer.
      if (tasks.length === 0 && skipped.length === 1 && firstSkipped) throw firstSkipped.error;
      for (const t of tasks) for (const w of t.warnings) process.stderr.write(`warning: ${w}\n`);
      for (const s of skipped) process.stderr.write(`skipped task ${s.path}: ${s.reason}\n`);
      for (const t of tasks) checkHostTools(t);
      const provider = getSandboxProvider(opts.sandbox);
      await provider.check();
      const seeds = Array.from({ length: opts.seeds }, (_, i) => 1000 + i * 7919);
      // The bundled dataset promises MIN_MUTANTS per task, however its tasks are named on the line.
      const bundled = bundledTasksDir() + sep;
      const minMutantsOf = (t: Task): number =>
        opts.minMutants ?? (resolve(t.dir).startsWith(bundled) ? MIN_MUTANTS : 0);
      const mutantStop: MutantStop = opts.fullGrading === true ? "never" : "after-first";
      const limit = pLimit(opts.concurrency);
      const results = await Promise.all(
        tasks.map((t) =>
          limit(async () => {
            process.stderr.write(`checking ${t.name}…\n`);
            const r: TaskCheckResult = opts.mutantsOnly
              ? {
                  ...(await checkMutants(t, {
                    provider,
                    seeds: opts.quick ? seeds.slice(0, 1) : seeds,
                    timeoutMultiplier: opts.timeoutMultiplier,
                    minMutants: minMutantsOf(t),
                    stop: mutantStop,
                  })),
                  rewards: { oracle: [], nop: [], partial: [] },
                }
              : await checkTask(t, {
                  provider,
                  seeds,
                  timeoutMultiplier: opts.timeoutMultiplier,
                  quick: opts.quick === true,
                  mutants: opts.mutants,
                  minMutants: opts.mutants ? minMutantsOf(t) : 0,
                  mutantStop,
                });
            process.stderr.write(`${r.ok ? "ok  " : "FAIL"} ${t.name}\n`);
            return r;
          }),
        ),
      );
      // A task that does not load fails its check, and the others are still checked.
      results.push(
        ...skipped.map((s) => ({
          task: s.path,
          ok: false,
          checks: [{ name: "task loads", ok: false, detail: s.reason }],
          rewards: { oracle: [], nop: [], partial: [] },
          mutants: [],
        })),
      );
      if (opts.json) writeJson({ ok: results.every((r) => r.ok), seeds, tasks: results });
      else process.stdout.write(renderChecks(results));
      if (!results.every((r) => r.ok)) process.exitCode = 1;
    });
}

function renderChecks(results: TaskCheckResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.ok ? pc.green("PASS") : pc.red("FAIL")} ${r.task}`);
    for (const c of r.checks) lines.push(`  ${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`);
    for (const m of r.mutants)
      lines.push(
        m.scriptError !== null
          ? `    ${pc.red("FAILED")} ${m.name}: its script failed (${m.scriptError})`
          : `    ${m.ok ? "caught" : pc.red("MISSED")} ${m.name}: ${describeMutant(m)}`,
      );
  }
  const failed = results.filter((r) => !r.ok).length;
  lines.push("", `${results.length - failed} of ${results.length} tasks pass`);
  return `${lines.join("\n")}\n`;
}
