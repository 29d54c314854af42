import { homedir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import {
  DEFAULT_MAX_RESULT_MIB,
  MAX_LOCK_MS,
  MAX_RESULT_MIB,
  MAX_STALLED_MS,
  startWorker,
} from "../../distributed/index.js";
import { positiveInt } from "../options.js";

interface WorkerCliOptions {
  redis: string;
  concurrency: number;
  sandbox: string;
  cache: string;
  lockMs: number;
  stalledMs: number;
  maxResultMib: number;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command("worker")
    .description("take trials from a Redis queue (run --queue) and run them until stopped")
    .requiredOption("--redis <url>", "Redis URL of the queue (redis://host:6379)")
    .option("-n, --concurrency <n>", "trials run at once on this machine", positiveInt("--concurrency"), 1)
    .option("--sandbox <name>", "sandbox provider", "bwrap")
    .option(
      "--cache <dir>",
      "where task bundles and images are cached",
      join(homedir(), ".cache", "longhaul"),
    )
    .option(
      "--lock-ms <ms>",
      "lease of a running trial: a worker silent this long loses its trial to another",
      positiveInt("--lock-ms", MAX_LOCK_MS),
      30_000,
    )
    .option(
      "--stalled-ms <ms>",
      "how often expired leases are looked for (queue-wide: the first worker's check holds the others off this long; at most 1 h)",
      positiveInt("--stalled-ms", MAX_STALLED_MS),
      30_000,
    )
    .option(
      "--max-result-mib <n>",
      "a trial folder whose pack is larger is not sent (the result goes without it)",
      positiveInt("--max-result-mib", MAX_RESULT_MIB),
      DEFAULT_MAX_RESULT_MIB,
    )
    .action(async (opts: WorkerCliOptions) => {
      const log = (line: string): void => {
        process.stderr.write(`${line}\n`);
      };
      const worker = await startWorker({
        redisUrl: opts.redis,
        concurrency: opts.concurrency,
        sandbox: opts.sandbox,
        cacheDir: opts.cache,
        lockMs: opts.lockMs,
        stalledMs: opts.stalledMs,
        maxResultMib: opts.maxResultMib,
        log,
      });
      const clean = await new Promise<boolean>((resolve) => {
        const stop = (sig: NodeJS.Signals): void => {
          log(`${sig}: worker ${worker.name} stopping; its running trials go back to the queue`);
          void worker.close().then(resolve);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      // Stopped without Redis: BullMQ's connections would keep retrying, and the process alive.
      if (!clean) process.exit(0);
    });
}
