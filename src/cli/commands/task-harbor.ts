import { join, resolve } from "node:path";
import type { Command } from "commander";
import pLimit from "p-limit";
import pc from "picocolors";
import { UserError } from "../../core/index.js";
import { bundledTasksDir, checkPlainHarbor, type PlainHarborResult } from "../../runner/index.js";
import { loadTaskSet } from "../../task/index.js";
import { positiveInt, positiveNumber, writeJson } from "../options.js";

interface HarborOptions {
  json?: boolean;
  concurrency: number;
  timeoutMultiplier: number;
  logs: string;
}

/** `longhaul task harbor-check`: each task in a plain container of its own image, as Harbor runs it. */
export function registerTaskHarborCheck(task: Command): void {
  task
    .command("harbor-check")
    .description(
      "run each task as plain Harbor would: its own Dockerfile's image, solution/ then tests/ copied in, no longhaul mount or seed (oracle R = 1.0, nop ≤ 0.05, seed drawn and recorded)",
    )
    .argument("[paths...]", "task or dataset folders (default: the bundled tasks)")
    .option("--json", "print the results as JSON")
    .option("-n, --concurrency <n>", "tasks at once", positiveInt("-n"), 2)
    .option(
      "--timeout-multiplier <x>",
      "scale the agent and verifier timeouts",
      positiveNumber("--timeout-multiplier"),
      1,
    )
    .option("--logs <dir>", "where image build logs go", join(".longhaul", "harbor-check"))
    .action(async (paths: string[], opts: HarborOptions) => {
      const roots = paths.length > 0 ? paths.map((p) => resolve(p)) : [bundledTasksDir()];
      const { tasks, skipped } = await loadTaskSet(roots);
      const firstSkipped = skipped[0];
      if (tasks.length === 0 && skipped.length === 1 && firstSkipped) throw firstSkipped.error;
      for (const s of skipped) process.stderr.write(`skipped task ${s.path}: ${s.reason}\n`);
      // Among image tasks a host task fails on its own line; with none there is nothing to run.
      if (tasks.length > 0 && tasks.every((t) => t.image === null)) {
        throw new UserError(
          `${paths.join(", ") || "the bundled tasks"}: no task has environment/Dockerfile or [environment] docker_image; Harbor runs a task in its image`,
        );
      }
      const limit = pLimit(opts.concurrency);
      const started = Date.now();
      const results: PlainHarborResult[] = await Promise.all(
        tasks.map((t) =>
          limit(async () => {
            process.stderr.write(`harbor-check ${t.name}…\n`);
            const r = await checkPlainHarbor(t, {
              logDir: join(resolve(opts.logs), t.name),
              timeoutMultiplier: opts.timeoutMultiplier,
            });
            process.stderr.write(`${r.ok ? pc.green("ok") : pc.red("FAIL")} ${t.name}: ${r.detail}\n`);
            return r;
          }),
        ),
      );
      const seconds = (Date.now() - started) / 1000;
      const ok = results.every((r) => r.ok);
      if (opts.json) writeJson({ ok, seconds, tasks: results });
      else {
        for (const r of results) process.stdout.write(`${r.ok ? "ok  " : "FAIL"} ${r.task}: ${r.detail}\n`);
        process.stdout.write(
          `${results.filter((r) => r.ok).length} of ${results.length} tasks pass as plain Harbor runs them (${seconds.toFixed(0)} s)\n`,
        );
      }
      if (!ok) process.exitCode = 1;
    });
}
