import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Command } from "commander";
import pc from "picocolors";
import { agentNeedsModel, createAgent } from "../../agents/index.js";
import { UserError } from "../../core/index.js";
import { parseSettings } from "../../models/index.js";
import { getSandboxProvider } from "../../sandbox/registry.js";
import { MAX_DEPTH, MODES, type ScaleMode } from "../../scale/child/res-json.js";
import {
  LINEAGE_TABLE_HEADER,
  lineageCost,
  lineageRows,
  lineageTokens,
  renderCost,
  renderLineageTree,
} from "../../scale/lineage/render.js";
import { unfinished } from "../../scale/lineage/resume.js";
import { scaleTask } from "../../scale/lineage/scale.js";
import { readLineageSettings } from "../../scale/lineage/settings.js";
import { readLineage } from "../../scale/lineage/store.js";
import { makeProposer, PROPOSERS, type ProposerKind } from "../../scale/plan/make-proposer.js";
import { LIBRARIES, type LibraryName } from "../../scale/plan/schema.js";
import type { TargetAgent } from "../../scale/target/evaluate-target.js";
import { listTransforms } from "../../scale/transforms/registry.js";
import type { Verdict } from "../../scale/verify/diagnostics.js";
import { verifyChild } from "../../scale/verify/verify-child.js";
import { addGlobalOptions, allCommands } from "../global-options.js";
import { nonNegativeInt, positiveInt, positiveNumber } from "../options.js";
import { formatTable } from "../results-table.js";
import { registerScaleExperiment } from "./scale-experiment.js";
import { fillFromLineage, type ResumableOpts } from "./scale-resume.js";

interface ScaleOpts extends ResumableOpts {
  concurrency: number;
  out?: string;
  sandbox: string;
  timeoutMultiplier: number;
  baseUrl?: string;
  resume?: boolean;
}

function oneOf<T extends string>(flag: string, allowed: readonly T[], value: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UserError(`${flag} must be one of ${allowed.join(", ")}, got "${value}"`);
  }
  return value as T;
}

function depthOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_DEPTH) {
    throw new UserError(`--depth must be a whole number from 1 to ${MAX_DEPTH}, got "${value}"`);
  }
  return n;
}

export function registerScaleCommand(program: Command): void {
  // `scale verify X --no-trials`: options after a subcommand belong to it, not to `scale`. Commander
  // honours that only when every level above is positional too; the global options that this
  // keeps the program from seeing after `scale` are given to scale's own commands (see below).
  program.enablePositionalOptions();
  const scale = program
    .command("scale")
    .description("make verified, harder children of a task by transforming its environment (RES)")
    .enablePositionalOptions()
    .argument("[task]", "the task folder to scale")
    .option("--depth <k>", `levels of the lineage (1-${MAX_DEPTH}); required`, depthOf)
    .option(
      "--children <n>",
      "chains (recursive) or children of the root (independent)",
      positiveInt("--children"),
      1,
    )
    .option("--library <name>", `transform library: ${LIBRARIES.join(" | ")}`, "full")
    .option("--mode <mode>", `${MODES.join(" | ")}`, "recursive")
    .option("--seed <s>", "seed of every choice the planner makes", nonNegativeInt("--seed"), 1)
    .option("--out <dir>", "lineage folder (default: ./<task>-res)")
    .option("--steps <n>", "plan steps per level", positiveInt("--steps"), 2)
    .option(
      "--repairs <n>",
      "repairs of a rejected candidate before it is discarded",
      nonNegativeInt("--repairs"),
      3,
    )
    .option(
      "-n, --concurrency <n>",
      "chains (recursive) or independent children grown at once; a chain's levels stay in order",
      positiveInt("-n"),
      1,
    )
    .option("--sandbox <name>", "sandbox provider of the verifier", "bwrap")
    .option("--no-trials", "skip the oracle trials of the verifier (check d)")
    .option("--proposer <kind>", `who plans each level: ${PROPOSERS.join(" | ")}`, "seeded")
    .option("--model <provider:model>", "the model of --proposer llm")
    .option("--base-url <url>", "base URL for an openai-compatible model of --proposer llm")
    .option(
      "--timeout-multiplier <x>",
      "scale every trial timeout",
      positiveNumber("--timeout-multiplier"),
      1,
    )
    .option("--target-agent <name>", "adaptive stop: this agent attempts each approved child")
    .option(
      "--target-attempts <n>",
      "adaptive stop: attempts per child; the chain stops below a child failed in every one",
      positiveInt("--target-attempts"),
      3,
    )
    .option("--target-model <provider:model>", "the model of --target-agent")
    .option("--resume", "go on with the lineage in --out where it stopped, with its own settings")
    .action(async (given: string | undefined, cliOpts: ScaleOpts, cmd: Command) => {
      if (given === undefined && !(cliOpts.resume === true && cliOpts.out !== undefined)) {
        throw new UserError("scale needs a task folder: longhaul scale TASK --depth K");
      }
      const out = resolve(cliOpts.out ?? `${basename(resolve(given ?? ""))}-res`);
      const resumed = cliOpts.resume === true ? fillFromLineage(cmd, out, cliOpts) : null;
      const opts = resumed?.opts ?? cliOpts;
      const task = given ?? resumed?.task ?? "";
      if (opts.depth === undefined) throw new UserError("scale needs --depth K (1-10)");
      const library = oneOf<LibraryName>("--library", LIBRARIES, opts.library);
      const mode = oneOf<ScaleMode>("--mode", MODES, opts.mode);
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      const proposer = makeProposer({
        kind: oneOf<ProposerKind>("--proposer", PROPOSERS, opts.proposer),
        model: opts.model,
        settings: parseSettings(opts.baseUrl === undefined ? {} : { baseUrl: opts.baseUrl }),
        log,
      });
      const target = targetOf(opts);
      const provider = getSandboxProvider(opts.sandbox);
      await provider.check();
      const t0 = performance.now();
      const stop = stopOnSignal(
        `approved children are kept. Continue with: longhaul scale ${task} --resume --out ${out}`,
      );
      const growing = scaleTask({
        taskDir: task,
        outDir: out,
        depth: opts.depth,
        children: opts.children,
        concurrency: opts.concurrency,
        library,
        mode,
        seed: opts.seed,
        stepsPerLevel: opts.steps,
        repairs: opts.repairs,
        provider,
        trials: opts.trials,
        proposer,
        log,
        ...(target === undefined ? {} : { target }),
        timeoutMultiplier: opts.timeoutMultiplier,
        resume: opts.resume === true,
        signal: stop.signal,
      }).finally(stop.release);
      const result = await growing.catch((e: unknown) => {
        // Stopped by the user: the hint is printed; what was approved is in the lineage.
        if (stop.signal.aborted) return null;
        throw e;
      });
      if (result === null) {
        process.exitCode = 130;
        return;
      }
      process.stdout.write(`${formatTable(LINEAGE_TABLE_HEADER, lineageRows(result.nodes))}\n`);
      process.stdout.write(`\n${renderCost(lineageCost(result.nodes))}`);
      const approved = result.nodes.filter((n) => n.status === "approved").length;
      const discarded = result.nodes.filter((n) => n.status === "discarded").length;
      const tokens = lineageTokens(result.nodes);
      const spent =
        tokens === null
          ? ""
          : `; ${tokens.input} input + ${tokens.output} output tokens (${tokens.perApproved} per approved child)`;
      process.stderr.write(
        `${approved} approved, ${discarded} discarded in ${((performance.now() - t0) / 1000).toFixed(1)} s${spent}; lineage in ${out}\n`,
      );
      if (discarded > 0) process.exitCode = 1;
    });
  scale
    .command("verify")
    .description("re-run the verifier on one child folder and print each check")
    .argument("<child>", "a child folder made by `longhaul scale`")
    .option("--sandbox <name>", "sandbox provider", "bwrap")
    .option("--no-trials", "skip the oracle trials (check d)")
    .option("--parent <dir>", "the parent folder, when it is no longer where res.json says")
    .option("--json", "print the verdict as JSON")
    .action(
      async (child: string, opts: { sandbox: string; trials: boolean; parent?: string; json?: boolean }) => {
        if (!existsSync(join(child, "res.json"))) {
          throw new UserError(`${child}: not a RES child folder (no res.json)`);
        }
        const provider = getSandboxProvider(opts.sandbox);
        await provider.check();
        const verdict = await verifyChild(child, { provider, trials: opts.trials, parentDir: opts.parent });
        process.stdout.write(
          opts.json ? `${JSON.stringify(verdict, null, 2)}\n` : renderVerdict(child, verdict),
        );
        if (!verdict.ok) process.exitCode = 1;
      },
    );
  registerScaleExperiment(scale);
  scale
    .command("transforms")
    .description("list the environment transforms (built-in and from plugins): kind, basic, summary")
    .option("--json", "print one JSON document")
    .action((opts: { json?: boolean }) => {
      const rows = listTransforms().map((t) => ({
        name: t.name,
        kind: t.kind,
        basic: t.basic,
        arity: t.arity,
        summary: t.summary,
      }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const table = rows.map((r) => [r.name, r.kind, r.basic ? "yes" : "", r.summary]);
      process.stdout.write(`${formatTable(["TRANSFORM", "KIND", "BASIC", "SUMMARY"], table)}\n`);
    });
  scale
    .command("tree")
    .description("print a lineage as a tree: each node's transforms and verifier result")
    .argument("<out>", "a lineage folder (holding lineage.jsonl)")
    .action((out: string) => {
      const nodes = readLineage(out);
      process.stdout.write(`${renderLineageTree(nodes)}\n${renderCost(lineageCost(nodes))}`);
      const s = readLineageSettings(out);
      const open = s === null ? [] : unfinished(nodes, s.mode, s.depth, s.children);
      if (s !== null && open.length > 0) {
        const where = open
          .map((c) =>
            s.mode === "independent"
              ? `child ${c.branch} not grown`
              : `chain ${c.branch} at depth ${c.reached} of ${s.depth}`,
          )
          .join(", ");
        process.stdout.write(`\nnot finished (${where}); go on with: longhaul scale --resume --out ${out}\n`);
      }
    });
  for (const cmd of allCommands(scale)) addGlobalOptions(cmd, true);
}

/** Ctrl-C (or SIGTERM) stops growing: the abort ends the command with exit 130 after `hint`. */
function stopOnSignal(hint: string): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\n${sig}: stopping; ${hint}\n`);
    controller.abort(new Error(sig));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const release = (): void => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  return { signal: controller.signal, release };
}

/** The adaptive stop's agent, checked before anything is built (an unknown agent, a missing model). */
function targetOf(opts: ScaleOpts): TargetAgent | undefined {
  if (opts.targetAgent === undefined) {
    if (opts.targetModel !== undefined)
      throw new UserError("--target-model is used only with --target-agent");
    return undefined;
  }
  createAgent(opts.targetAgent);
  if (agentNeedsModel(opts.targetAgent) && opts.targetModel === undefined) {
    throw new UserError(`--target-agent ${opts.targetAgent} needs --target-model PROVIDER:MODEL`);
  }
  return { agent: opts.targetAgent, model: opts.targetModel ?? null, attempts: opts.targetAttempts };
}

export function renderVerdict(child: string, v: Verdict): string {
  const lines = [`${v.ok ? pc.green("PASS") : pc.red("FAIL")} ${child}`];
  for (const c of v.checks) {
    const mark = c.status === "pass" ? "✓" : c.status === "fail" ? "✗" : "-";
    lines.push(`  ${mark} ${c.name}: ${c.detail}`);
    for (const d of c.diagnostics) lines.push(`      ${d.code}${d.step ? ` @${d.step}` : ""}: ${d.message}`);
  }
  return `${lines.join("\n")}\n`;
}
