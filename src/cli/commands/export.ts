import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { exportSft, SFT_FORMATS, type SftFormat } from "../../report/index.js";

interface SftOptions {
  jobsDir: string;
  out?: string;
  format: string;
  minReward?: number;
  includeFailed?: boolean;
  force?: boolean;
}

export function registerExportCommand(program: Command): void {
  const exp = program.command("export").description("export a job's results for other tools");
  exp
    .command("sft")
    .description("trajectories of resolved trials (R ≥ 0.95 by default) as chat-format JSONL for fine-tuning")
    .argument("[job]", "job id (default: the newest job)")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option("--out <file>", "output file (default: <job>-sft-<format>.jsonl)")
    .option("--format <f>", `record convention: ${SFT_FORMATS.join(", ")}`, "openai")
    .option("--min-reward <r>", "lowest R exported (default: the Pass@1 threshold, 0.95)", rewardArg)
    .option("--include-failed", "export every scored trial, whatever its R")
    .option("--force", "replace an existing --out file")
    .action(async (job: string | undefined, opts: SftOptions) => {
      if (opts.includeFailed && opts.minReward !== undefined) {
        throw new UserError("--min-reward and --include-failed exclude each other");
      }
      const r = await exportSft({
        jobsDir: opts.jobsDir,
        ...(job === undefined ? {} : { job }),
        ...(opts.out === undefined ? {} : { out: opts.out }),
        format: parseFormat(opts.format),
        ...(opts.minReward === undefined ? {} : { minReward: opts.minReward }),
        includeFailed: opts.includeFailed === true,
        force: opts.force === true,
        log: (line) => process.stderr.write(`${line}\n`),
      });
      const skipped = Object.entries(r.skipped)
        .map(([why, n]) => `${n} ${why}`)
        .join(", ");
      process.stdout.write(
        `${r.out}\n${r.exported} of ${r.trials} trial(s) of job ${r.job} exported${skipped === "" ? "" : `; skipped: ${skipped}`}\n`,
      );
    });
}

function parseFormat(value: string): SftFormat {
  const f = SFT_FORMATS.find((x) => x === value);
  if (f === undefined)
    throw new UserError(`--format must be one of ${SFT_FORMATS.join(", ")}, got "${value}"`);
  return f;
}

function rewardArg(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UserError(`--min-reward must be a number from 0 to 1, got "${value}"`);
  }
  return n;
}
