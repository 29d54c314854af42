import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { type CalibrationTrial, calibrate, DEFAULT_MIN_ATTEMPTS, parseBand } from "../../analysis/index.js";
import { checkJobName, UserError } from "../../core/index.js";
import { CALIBRATION_FORMATS, parseCalibrationFormat, renderCalibration } from "../../report/index.js";
import { checkOutFile, writeOutFile } from "../../report/out-file.js";
import { JobStore } from "../../store/index.js";
import { nonNegativeInt, positiveInt } from "../options.js";

interface CalibrateOptions {
  jobsDir: string;
  band: string;
  target?: number;
  minAttempts: number;
  format: string;
  out?: string;
  seed?: number;
}

export function registerDatasetCommand(program: Command): void {
  const dataset = program
    .command("dataset")
    .description("the dataset as a whole: calibrate task difficulty from results");
  dataset
    .command("calibrate")
    .description(
      "rank candidate tasks by models and attempts reaching R ≥ 0.95 and mean R; propose those in a difficulty band",
    )
    .argument("[jobs...]", "job ids in --jobs-dir, or job folders (default: every job in --jobs-dir)")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option("--band <low,high>", "solve-rate band LOW < rate ≤ HIGH of the proposed tasks", "0,0.5")
    .option(
      "--target <n>",
      "pick N tasks of the band, spread over categories in proportion",
      positiveInt("--target"),
    )
    .option(
      "--min-attempts <n>",
      "scored attempts a task needs to be placed in the band",
      positiveInt("--min-attempts"),
      DEFAULT_MIN_ATTEMPTS,
    )
    .option("--format <f>", `output format: ${CALIBRATION_FORMATS.join(", ")}`, "table")
    .option("--out <file>", "write the report to a file instead of stdout")
    .option("--seed <n>", "bootstrap seed of the mean-R intervals", nonNegativeInt("--seed"))
    .action(async (jobs: string[], opts: CalibrateOptions) => {
      // Every argument is checked before any job is opened, so a typo costs no reading.
      const band = parseBand(opts.band);
      const format = parseCalibrationFormat(opts.format);
      if (opts.out !== undefined) checkOutFile(opts.out);
      const trials = await readJobs(jobs, opts.jobsDir);
      const c = calibrate(trials, {
        band,
        minAttempts: opts.minAttempts,
        ...(opts.target === undefined ? {} : { target: opts.target }),
        ...(opts.seed === undefined ? {} : { seed: opts.seed }),
      });
      if (c.target !== null && c.target.shortfall > 0) {
        process.stderr.write(
          `WARNING: --target ${c.target.target}: the band holds only ${c.target.picked.length} task(s)\n`,
        );
      }
      const text = renderCalibration(c, format, "longhaul dataset calibrate");
      if (opts.out === undefined) process.stdout.write(text);
      else {
        writeOutFile(opts.out, text);
        process.stderr.write(`wrote ${opts.out}\n`);
      }
    });
}

/**
 * A job argument: an id in jobsDir, or else a job folder (it holds config.json), read from its
 * parent. The id is tried first so that a folder of the same name in the working directory does
 * not shadow the job.
 */
function locate(arg: string, jobsDir: string): { jobsDir: string; id: string } {
  const isName = !arg.includes("/") && !arg.includes("\\");
  if (isName && existsSync(join(jobsDir, arg, "config.json"))) return { jobsDir, id: checkJobName(arg) };
  const asFolder = resolve(arg);
  if (existsSync(join(asFolder, "config.json")) && statSync(asFolder).isDirectory()) {
    return { jobsDir: dirname(asFolder), id: basename(asFolder) };
  }
  if (!isName) throw new UserError(`${arg}: not a job folder (no config.json in it)`);
  return { jobsDir, id: checkJobName(arg) };
}

/** The trials of the named jobs (every job of jobsDir when none is named), store by store. */
async function readJobs(args: readonly string[], jobsDir: string): Promise<CalibrationTrial[]> {
  const byDir = new Map<string, string[]>();
  for (const a of args) {
    const { jobsDir: dir, id } = locate(a, jobsDir);
    // Checked before a store is opened, since opening one creates its folder and index.
    if (!existsSync(join(dir, id, "config.json")))
      throw new UserError(`no job named ${id} in ${resolve(dir)}`);
    // A job named twice (or by id and by folder) is read once: its trials must not count twice.
    const key = resolve(dir);
    const ids = byDir.get(key) ?? [];
    if (!ids.includes(id)) byDir.set(key, [...ids, id]);
  }
  if (args.length === 0) byDir.set(jobsDir, []);
  const trials: CalibrationTrial[] = [];
  let jobCount = 0;
  for (const [dir, ids] of byDir) {
    if (args.length === 0 && !existsSync(dir))
      throw new UserError(`no jobs dir ${dir}; name jobs or pass --jobs-dir`);
    const store = await JobStore.open(dir);
    try {
      const names = ids.length > 0 ? ids : (await store.listJobs()).map((j) => j.id);
      if (names.length === 0) throw new UserError(`no jobs in ${dir}; run some with: longhaul run --agent …`);
      for (const id of names) {
        store.loadJobConfig(id);
        const found = await store.listTrials(id);
        if (found.length === 0 && store.finishedTrialFiles(id) > 0) {
          throw new UserError(
            `${store.jobsDir}/longhaul.db has no trials of job ${id}, but its folder holds finished trials: re-index with longhaul run --resume --job ${id} --jobs-dir ${store.jobsDir}`,
          );
        }
        process.stderr.write(`${id}: ${found.length} trial(s)\n`);
        trials.push(...found);
        jobCount++;
      }
    } finally {
      await store.close();
    }
  }
  if (trials.length === 0)
    throw new UserError(`the ${jobCount} job(s) hold no finished trials; nothing to calibrate`);
  return trials;
}
