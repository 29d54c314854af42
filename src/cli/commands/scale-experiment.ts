import { resolve } from "node:path";
import type { Command } from "commander";
import { agentNeedsModel, createAgent } from "../../agents/index.js";
import { checkJobName, UserError } from "../../core/index.js";
import { createProgress, jobSummary } from "../../runner/index.js";
import { getSandboxProvider } from "../../sandbox/registry.js";
import { EXPERIMENT_TABLE_HEADER, experimentRows } from "../../scale/experiment/render-experiment.js";
import { EXPERIMENT_HTML, EXPERIMENT_JSON, runExperiment } from "../../scale/experiment/run-experiment.js";
import { parseAblations, parseDepths } from "../../scale/experiment/variants.js";
import { JobStore } from "../../store/index.js";
import { collect, nonNegativeInt, parseKeyValues, positiveInt, positiveNumber } from "../options.js";
import { formatTable } from "../results-table.js";

interface ExperimentOpts {
  agent?: string;
  model?: string;
  agentOpt?: string[];
  depths: string;
  attempts: number;
  ablations: string;
  seed: number;
  out: string;
  sandbox: string;
  steps: number;
  repairs: number;
  trials: boolean;
  jobsDir: string;
  job?: string;
  resume?: boolean;
  concurrency: number;
  timeoutMultiplier: number;
  retries: number;
}

/** `longhaul scale experiment TASKS... --agent A`: success and mean R against depth, per variant. */
export function registerScaleExperiment(scale: Command): void {
  scale
    .command("experiment")
    .description("run an agent on a task's root and its children at chosen depths, per lineage variant")
    .argument("<tasks...>", "root task folders")
    .option("-a, --agent <name>", "the agent to evaluate (required)")
    .option("-m, --model <provider:model>", "its model, for agents that need one")
    .option("--agent-opt <key=value>", "option passed to the agent (repeatable)", collect)
    .option("--depths <list>", "depths to evaluate, 0 (the root) to 10", "0,1,2,5,10")
    .option("-k, --attempts <n>", "trials per node", positiveInt("--attempts"), 1)
    .option("--ablations <which>", "none | all | a list of no-xref-prep,basic,independent", "none")
    .option("--seed <s>", "seed of the lineages and of the trials' hidden seeds", nonNegativeInt("--seed"), 1)
    .option("--out <dir>", "experiment folder (lineages are reused from it)", "res-experiment")
    .option("--sandbox <name>", "sandbox provider", "bwrap")
    .option("--steps <n>", "plan steps per level", positiveInt("--steps"), 2)
    .option("--repairs <n>", "repairs of a rejected candidate", nonNegativeInt("--repairs"), 3)
    .option("--no-trials", "build children without the verifier's oracle trials (check d)")
    .option("--jobs-dir <dir>", "where the job is stored", "jobs")
    .option("--job <name>", "job name (default: a timestamped id)")
    .option("--resume", "continue the experiment's job (--job NAME): its finished trials are kept")
    .option("-n, --concurrency <n>", "trials run at once, and lineages built at once", positiveInt("-n"), 1)
    .option(
      "--timeout-multiplier <x>",
      "scale every phase timeout",
      positiveNumber("--timeout-multiplier"),
      1,
    )
    .option("--retries <n>", "retries after an infrastructure failure", nonNegativeInt("--retries"), 2)
    .action(async (tasks: string[], opts: ExperimentOpts) => {
      if (opts.agent === undefined) throw new UserError("scale experiment needs --agent NAME");
      const agentOptions = parseKeyValues(opts.agentOpt ?? []);
      createAgent(opts.agent, agentOptions);
      if (agentNeedsModel(opts.agent) && opts.model === undefined) {
        throw new UserError(`agent ${opts.agent} needs a model: pass --model PROVIDER:MODEL`);
      }
      const depths = parseDepths(opts.depths);
      const variants = parseAblations(opts.ablations);
      const jobId = opts.job === undefined ? undefined : checkJobName(opts.job);
      if (opts.resume === true && jobId === undefined) {
        throw new UserError("scale experiment --resume needs --job NAME: the job to continue");
      }
      const provider = getSandboxProvider(opts.sandbox);
      await provider.check();
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      const store = await JobStore.open(opts.jobsDir);
      const controller = new AbortController();
      const onSignal = (sig: NodeJS.Signals): void => {
        log(`\n${sig}: stopping`);
        controller.abort(new Error(sig));
      };
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const running = runExperiment({
          taskDirs: tasks.map((t) => resolve(t)),
          agent: opts.agent,
          model: opts.model ?? null,
          agentOptions,
          attempts: opts.attempts,
          depths,
          variants,
          seed: opts.seed,
          outDir: opts.out,
          stepsPerLevel: opts.steps,
          repairs: opts.repairs,
          verifierTrials: opts.trials,
          provider,
          sandbox: opts.sandbox,
          store,
          ...(jobId === undefined ? {} : { jobId }),
          resume: opts.resume === true,
          concurrency: opts.concurrency,
          timeoutMultiplier: opts.timeoutMultiplier,
          retries: opts.retries,
          log,
          progress: createProgress(),
          signal: controller.signal,
        });
        const run = await running.catch((e: unknown) => {
          // Stopped while building lineages: what was approved stays, and a rerun goes on from it.
          if (controller.signal.aborted) return null;
          throw e;
        });
        if (run === null) {
          log("the lineages' approved children are kept; the same command goes on with them");
          process.exitCode = 130;
          return;
        }
        store.writeJobResult(
          run.config.job_id,
          jobSummary(run.config, run.outcome.trials, run.outcome.interrupted),
        );
        process.stdout.write(`${formatTable(EXPERIMENT_TABLE_HEADER, experimentRows(run.experiment))}\n`);
        const out = resolve(opts.out);
        log(
          `job ${run.config.job_id} in ${store.jobDir(run.config.job_id)}; ${resolve(out, EXPERIMENT_JSON)}, ${resolve(out, EXPERIMENT_HTML)}`,
        );
        if (run.outcome.interrupted) {
          log(
            `finished trials are kept; continue with the same command and --resume --job ${run.config.job_id}${opts.jobsDir === "jobs" ? "" : ` --jobs-dir ${opts.jobsDir}`}`,
          );
          process.exitCode = 130;
        }
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        await store.close();
      }
    });
}
