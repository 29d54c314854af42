import type { Command } from "commander";
import { queueStatus, renderQueueStatus } from "../../distributed/index.js";
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
}
