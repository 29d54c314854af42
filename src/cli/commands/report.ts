import { readFileSync } from "node:fs";
import type { Command } from "commander";
import {
  type AnalysisTrial,
  type Comparison,
  compareJobs,
  DEFAULT_BOOTSTRAP_SAMPLES,
  describeMismatches,
  type ExternalResults,
  type ExternalSummaryRow,
  isFolder,
  parseExternalResults,
  type ReportedJob,
  readHarborJob,
  referenceAgreement,
  type Summary,
  summarize,
  summaryFromPublished,
  validateGroupBy,
} from "../../analysis/index.js";
import { type TrialResult, UserError } from "../../core/index.js";
import {
  getReportRenderer,
  incompleteJobs,
  jobStatusLine,
  listReportRenderers,
  maskedPasswordNote,
  renderComparisonCsv,
  renderComparisonMarkdown,
  renderComparisonTable,
  renderJson,
} from "../../report/index.js";
import { checkOutFile, writeOutFile } from "../../report/out-file.js";
import { JobStore } from "../../store/index.js";
import { nonNegativeInt } from "../options.js";
import { reportedJob, resumeCommand } from "./report-jobs.js";

/** A comparison's formats (a comparison is not a summary, so the report renderers do not apply). */
const COMPARISON_RENDERERS: ReadonlyMap<string, (c: Comparison) => string> = new Map([
  ["table", renderComparisonTable],
  ["json", renderJson],
  ["csv", renderComparisonCsv],
  ["md", renderComparisonMarkdown],
]);

/** Formats whose text shows each job's status line above the numbers. */
const TEXT_FORMATS: ReadonlySet<string> = new Set(["table", "md", "html"]);

/** The built-in formats, for the help line; --format accepts every registered renderer. */
const FORMATS = ["table", "json", "csv", "md", "html"] as const;

interface ReportOptions {
  jobsDir: string;
  import?: string[];
  format: string;
  out?: string;
  json?: boolean;
  groupBy: string;
  breakdown?: string;
  seed?: number;
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description(
      "metrics per agent × model: Pass@1 at R ≥ 0.95 and R = 1.0, mean R, near-misses, false finishes, …",
    )
    .argument("[jobs...]", "job ids (default: the newest job)")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option(
      "--import <path>",
      "results from another harness: a per-trial or per-model CSV/JSON file, or a Harbor job folder",
      collectFiles,
    )
    .option("--format <f>", `output format: ${FORMATS.join(", ")}`, "table")
    .option("--json", "same as --format json")
    .option("--out <file>", "write the report to a file instead of stdout")
    .option("--group-by <dims>", "grouping dimensions (agent, model, category, task)", "agent,model")
    .option("--breakdown <dims>", "extra breakdown tables: category, task (comma-separated)", "category")
    .option("--seed <n>", "bootstrap seed (recorded in the output)", nonNegativeInt("--seed"))
    .action(async (jobs: string[], opts: ReportOptions) => {
      const format = parseFormat(opts.json ? "json" : opts.format);
      if (opts.out !== undefined) checkOutFile(opts.out);
      const summary = await buildSummary(jobs, opts);
      const breakdowns = (opts.breakdown ?? "")
        .split(",")
        .filter((d) => d !== "")
        .map((d) => {
          if (d !== "category" && d !== "task") throw new UserError(`--breakdown: unknown dimension "${d}"`);
          return d;
        });
      const text = render(summary, format, breakdowns, jobs.join(", "));
      // Formats read by programs carry the status in their data; a person running the command
      // sees it here too, since a partial job's numbers are not the job's.
      if (!TEXT_FORMATS.has(format))
        for (const j of incompleteJobs(summary)) process.stderr.write(`WARNING: ${jobStatusLine(j)}\n`);
      emit(text, opts.out);
    });

  program
    .command("compare")
    .description(
      "compare two jobs task by task, with a paired bootstrap interval on the difference in mean R",
    )
    .argument("[jobs...]", "longhaul job ids; with --import, the sides are the jobs then the imports")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option(
      "--import <path>",
      "a side from another harness: a Harbor job folder or a per-trial CSV/JSON file",
      collectFiles,
    )
    .option("--format <f>", "table, json, csv or md", "table")
    .option("--out <file>", "write to a file instead of stdout")
    .option("--seed <n>", "bootstrap seed (recorded in the output)", nonNegativeInt("--seed"))
    .option(
      "--allow-different-cases",
      "compare even when the jobs graded a (task, attempt) on different hidden cases (warns)",
    )
    .action(
      async (
        jobs: string[],
        opts: {
          jobsDir: string;
          import?: string[];
          format: string;
          out?: string;
          seed?: number;
          allowDifferentCases?: boolean;
        },
      ) => {
        const sides = [...jobs.map((j) => ({ job: j })), ...(opts.import ?? []).map((f) => ({ file: f }))];
        if (sides.length !== 2) {
          throw new UserError(
            `compare takes exactly two sides (job ids, then --import paths), got ${sides.length}: e.g. longhaul compare JOB_A JOB_B, or longhaul compare JOB --import HARBOR_JOB_FOLDER`,
          );
        }
        const [jobA, jobB] = sides.map((s) => ("job" in s ? s.job : s.file)) as [string, string];
        const renderComparison = COMPARISON_RENDERERS.get(parseFormat(opts.format));
        if (renderComparison === undefined) throw new UserError("compare supports table, json, csv and md");
        if (opts.out !== undefined) checkOutFile(opts.out);
        let store: JobStore | null = null;
        const trialSets: AnalysisTrial[][] = [];
        try {
          for (const side of sides) {
            if ("file" in side) trialSets.push(importedTrialsOf(side.file));
            else {
              store ??= await JobStore.openExisting(opts.jobsDir);
              trialSets.push(await trialsOf(store, side.job));
            }
          }
        } finally {
          await store?.close();
        }
        const [a, b] = trialSets as [AnalysisTrial[], AnalysisTrial[]];
        const c = compareJobs(a, b, opts.seed === undefined ? {} : { seed: opts.seed });
        if (c.hiddenCases.length > 0) {
          const what = `${jobA} and ${jobB} graded ${c.hiddenCases.length} (task, attempt) pair(s) on different hidden cases: ${describeMismatches(c.hiddenCases)}`;
          if (opts.allowDifferentCases !== true) {
            throw new UserError(
              `${what}; differences would mix agent and test-case effects (re-run with the same --seed, or pass --allow-different-cases)`,
            );
          }
          process.stderr.write(
            `WARNING: ${what}. Comparing anyway (--allow-different-cases): differences there mix agent and test-case effects.\n`,
          );
        }
        emit(renderComparison(c), opts.out);
      },
    );
}

async function buildSummary(jobs: string[], opts: ReportOptions): Promise<Summary> {
  const groupBy = validateGroupBy(opts.groupBy.split(",").filter((d) => d !== ""));
  const seedOpt = opts.seed === undefined ? {} : { seed: opts.seed };
  const imported = (opts.import ?? []).map(readImport);
  const tables = imported.flatMap((r) => (r.kind === "summary" ? [r] : []));
  const importedTrials = imported.flatMap((r) => (r.kind === "trials" ? r.trials : []));
  // Per-model tables alone are reported as they are; next to trials they are references that
  // the trials' ranking is measured against (see docs/reports.md, "Rank agreement").
  if (tables.length > 0 && jobs.length === 0 && importedTrials.length === 0) {
    const [first, ...rest] = tables;
    const summary = summaryFromPublished(first?.rows ?? [], seedOpt);
    return withReferences(summary, rest);
  }
  const trials: AnalysisTrial[] = [...importedTrials];
  const reported: ReportedJob[] = [];
  if (jobs.length > 0 || importedTrials.length === 0) {
    const store = await JobStore.openExisting(opts.jobsDir);
    try {
      // A job named twice is read once: its trials must not count twice.
      const ids = jobs.length > 0 ? [...new Set(jobs)] : [await latest(store)];
      for (const id of ids) {
        const own = await trialsOf(store, id);
        trials.push(...own);
        reported.push(await reportedJob(store, id, own));
      }
    } finally {
      await store.close();
    }
  }
  const summary = summarize(trials, { groupBy, ...seedOpt });
  if (summary.hiddenCaseWarnings.length > 0) {
    process.stderr.write(
      `WARNING: agents on one (task, attempt) saw different hidden stress inputs: ${describeMismatches(summary.hiddenCaseWarnings)}\n`,
    );
  }
  const withRefs = withReferences(summary, tables);
  return reported.length > 0 ? { ...withRefs, jobs: reported } : withRefs;
}

function withReferences(
  summary: Summary,
  tables: readonly { file: string; rows: ExternalSummaryRow[] }[],
): Summary {
  const references = tables.map((t) => {
    const ref = summaryFromPublished(t.rows, { seed: summary.seed });
    return {
      reference: t.file,
      comparisons: referenceAgreement(summary.groups, ref.groups, {
        seed: summary.seed,
        samples: DEFAULT_BOOTSTRAP_SAMPLES,
        label: t.file,
      }),
    };
  });
  return { ...summary, references: [...summary.references, ...references] };
}

async function latest(store: JobStore): Promise<string> {
  const id = await store.latestJobId();
  if (id !== null) return id;
  const onDisk = store.jobFoldersOnDisk();
  if (onDisk.length > 0) {
    throw new UserError(
      `${store.jobsDir}/longhaul.db lists no jobs, but ${onDisk.length} job folder(s) exist (${onDisk.slice(0, 3).join(", ")}): the index is empty or was replaced; name the job, after re-indexing it with longhaul run --resume --job NAME`,
    );
  }
  throw new UserError(`no jobs in ${store.jobsDir}; run one with: longhaul run --agent oracle`);
}

/**
 * A job's trials from the index. An empty answer is never reported as "0 trials": either the job
 * has not finished a trial yet, or the index lost what the folder holds.
 */
async function trialsOf(store: JobStore, jobId: string): Promise<TrialResult[]> {
  const config = store.loadJobConfig(jobId);
  const trials = await store.listTrials(jobId);
  if (trials.length > 0) return trials;
  const files = store.finishedTrialFiles(jobId);
  if (files > 0) {
    throw new UserError(
      `${store.jobsDir}/longhaul.db has no trials of job ${jobId}, but its folder holds ${files} finished trial(s): the index is empty or stale; re-index with longhaul run --resume --job ${jobId} --jobs-dir ${store.jobsDir}`,
    );
  }
  const status = await store.jobStatus(jobId);
  const how =
    status === "interrupted"
      ? `interrupted: its runner stopped before any trial finished; resume it with ${withNote(resumeCommand(jobId, store.jobsDir, config.queue_url))}`
      : (status ?? "not in the index");
  throw new UserError(
    `job ${jobId} has no finished trials yet (${how}; ${store.jobDir(jobId)}); nothing to report`,
  );
}

/** A resume command followed by what the user must add to it, if anything. */
function withNote(command: string): string {
  return `${command}${maskedPasswordNote(command)}`;
}

function render(
  summary: Summary,
  format: string,
  breakdowns: ("category" | "task")[],
  title: string,
): string {
  return getReportRenderer(format).render(summary, {
    breakdowns,
    title: title === "" ? "longhaul report" : `longhaul report: ${title}`,
  });
}

function parseFormat(value: string): string {
  const known = listReportRenderers();
  if (known.includes(value)) return value;
  throw new UserError(`--format must be one of ${known.join(", ")}, got "${value}"`);
}

/**
 * One --import: a folder is a Harbor job (its trial result.json files); a file is a CSV/JSON
 * table. Harbor trials that could not be read are reported on stderr; the others are used.
 */
function readImport(path: string): ExternalResults {
  if (!isFolder(path)) return parseExternalResults(readText(path), path);
  const job = readHarborJob(path);
  if (job.skipped.length > 0) {
    const total = job.trials.length + job.skipped.length;
    const lines = job.skipped.map((s) => `  ${s.file}: ${s.reason}\n`).join("");
    process.stderr.write(
      `WARNING: skipped ${job.skipped.length} of ${total} Harbor trial result(s) in ${path}:\n${lines}`,
    );
  }
  return { kind: "trials", file: path, trials: job.trials };
}

function importedTrialsOf(path: string): AnalysisTrial[] {
  const r = readImport(path);
  if (r.kind === "trials") return r.trials;
  throw new UserError(
    `${path}: holds per-model rows, not trials; compare needs per-trial results (a Harbor job folder or a table with a task column)`,
  );
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UserError(`${file}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  }
}

function emit(text: string, out: string | undefined): void {
  const body = text.endsWith("\n") ? text : `${text}\n`;
  if (out === undefined) process.stdout.write(body);
  else {
    writeOutFile(out, body);
    process.stderr.write(`wrote ${out}\n`);
  }
}

function collectFiles(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
