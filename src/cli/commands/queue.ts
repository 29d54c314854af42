import type { Command } from "commander";
import { clearQueuedJob, queueStatus, renderQueueStatus } from "../../distributed/index.js";
import { writeJson } from "../options.js";

export function registerQueueCommand(program: Command): void {
  const queue = program.command("queue").description("the distributed trial queue (see docs/distributed.md)");
  queue
    .command("status")
    .description("workers connected, trials running and on which worker, backlog counts")
    .argument("<redis-url>", "Redis URL of the queue")
    .option("--json", "print the status as one JSON document")
    .action(async (url: string, opts: { json?: boolean }) => {
      const status = await queueStatus(url);
      if (opts.json) writeJson(status);
      else process.stdout.write(`${renderQueueStatus(status)}\n`);
    });
  queue
    .command("clear")
    .description("remove a job's queued and finished-but-uncollected trials from the queue")
    .argument("<redis-url>", "Redis URL of the queue")
    .requiredOption("--job <name>", "the job whose trials are removed")
    .action(async (url: string, opts: { job: string }) => {
      const r = await clearQueuedJob(url, opts.job);
      process.stdout.write(`removed ${r.removed} queued trial(s) of job ${opts.job}\n`);
      if (r.running.length > 0) {
        // A running trial is locked by its worker: it can be removed once it has finished.
        process.stderr.write(
          `${r.running.length} trial(s) still running on workers were kept; run this again once they finish: ${r.running.join(", ")}\n`,
        );
        process.exitCode = 1;
      }
    });
}
