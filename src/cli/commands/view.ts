import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { startViewer } from "../../server/index.js";
import { nonNegativeInt } from "../options.js";

interface ViewOptions {
  jobsDir: string;
  port: number;
}

export function registerViewCommand(program: Command): void {
  program
    .command("view")
    .description("browse jobs, trials, trajectories and recordings in a local web page")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option("--port <n>", "port on 127.0.0.1 (0 picks a free one)", nonNegativeInt("--port"), 7878)
    .action(async (opts: ViewOptions) => {
      if (opts.port > 65535) throw new UserError(`--port must be at most 65535, got ${opts.port}`);
      const dir = resolve(opts.jobsDir);
      if (!existsSync(join(dir, "longhaul.db"))) {
        throw new UserError(`${dir} holds no jobs (no longhaul.db); pass --jobs-dir or run a job first`);
      }
      const viewer = await startViewer({ jobsDir: dir, port: opts.port });
      process.stdout.write(`${viewer.url}\n`);
      process.stderr.write("serving results; press Ctrl-C to stop\n");
      await new Promise<void>((resolveStop) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void viewer.close().then(resolveStop);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
