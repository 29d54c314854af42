// Reads a finished job from a jobs folder and renders its report twice: as Markdown with a
// built-in renderer, and in a custom format registered by name next to the built-in ones.
//
//   node docs/examples/report-job.mjs JOBS_DIR [JOB_ID]
import {
  getReportRenderer,
  JobStore,
  listReportRenderers,
  registerReportRenderer,
  summarize,
} from "longhaul";

const [jobsDir, jobArg] = process.argv.slice(2);
if (jobsDir === undefined) throw new Error("usage: report-job.mjs JOBS_DIR [JOB_ID]");

// A one-line-per-group format; once registered, it is chosen by name like "md" or "json".
registerReportRenderer("oneline", {
  description: "one line per agent × model: Pass@1 and mean R",
  render: (summary) =>
    summary.groups
      .map((g) => `${g.label}: pass@1 ${g.pass095.k}/${g.pass095.n}, mean R ${g.meanReward.value?.toFixed(3) ?? "-"}`)
      .join("\n"),
});
console.log(`formats: ${listReportRenderers().map((r) => r.name).join(", ")}`);

const store = await JobStore.open(jobsDir);
try {
  const jobId = jobArg ?? (await store.latestJobId());
  if (jobId === null) throw new Error(`no jobs in ${jobsDir}`);
  const summary = summarize(await store.listTrials(jobId), { seed: 1 });
  console.log(getReportRenderer("oneline").render(summary, {}));
  console.log();
  console.log(getReportRenderer("md").render(summary, { breakdowns: ["task"] }));
} finally {
  await store.close();
}
