import type { ReportedJob, Summary } from "../analysis/summary-types.js";

/**
 * One line per job the report read, saying how it stands. The numbers of a job that is still
 * running, or whose runner stopped before the end, cover only the trials finished so far: that is
 * said next to them, with how many are missing, so a partial run is never read as a whole one.
 */
export function jobStatusLines(summary: Summary): string[] {
  return (summary.jobs ?? []).map(jobStatusLine);
}

export function jobStatusLine(j: ReportedJob): string {
  const counts = `${j.recorded} of ${j.planned} planned trial(s) recorded`;
  if (j.status === "finished" || j.status === "unknown") {
    return `job ${j.id}: ${j.status}, ${counts}${j.missing > 0 ? ` (${j.missing} missing)` : ""}`;
  }
  const partial = `${j.status}: these numbers cover only the ${j.recorded} of ${j.planned} planned trial(s) finished so far; ${j.missing} missing`;
  if (j.resume !== null)
    return `job ${j.id}: ${partial}. Resume it with: ${j.resume}${maskedPasswordNote(j.resume)}`;
  if (j.status === "running") return `job ${j.id}: ${partial} (report again when it ends)`;
  return `job ${j.id}: ${partial}`;
}

/** Whether any job the report read is incomplete (still running, or stopped before its end). */
export function incompleteJobs(summary: Summary): ReportedJob[] {
  return (summary.jobs ?? []).filter((j) => j.status !== "finished" || j.missing > 0);
}

/**
 * What a resume command whose queue URL had a password asks of the user: the job's files keep
 * the URL with the password masked as `***` (never the password), so it must be put back.
 */
export function maskedPasswordNote(command: string): string {
  return /:\*\*\*@|[?&]password=\*\*\*/.test(command)
    ? " (put the queue's password in place of ***: it is not recorded)"
    : "";
}
