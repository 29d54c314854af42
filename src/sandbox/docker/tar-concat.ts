import { spawn } from "node:child_process";
import { InfraError } from "../../core/errors.js";
import { timerMs } from "../../core/timer.js";
import { lastLines } from "../image/docker-cli.js";

/** Two zero blocks: where a tar written with one-block records (`tar -b 1`) ends. */
const END_BYTES = 1024;

/**
 * Pipes several `tar -c -b 1 ARGS…` runs (`tars` holds each one's ARGS), one after the other, into
 * one `to` process as one archive: each tar's end-of-archive blocks are dropped but the last
 * one's. With one block per record (set here, never by the caller) a tar ends with exactly two
 * zero blocks, so no member's data is ever cut. One `docker cp -` then places several trees,
 * where each would cost a docker call of its own.
 */
export async function pipeTarsOk(
  what: string,
  tars: readonly (readonly string[])[],
  to: readonly string[],
  timeoutSec = 300,
): Promise<void> {
  const [c2, ...a2] = to;
  const sink = spawn(c2 ?? "false", a2, { stdio: ["pipe", "ignore", "pipe"] });
  const errs: string[] = [];
  sink.stderr.on("data", (c: Buffer) => errs.push(c.toString("utf8")));
  let sinkError: Error | null = null;
  sink.on("error", (e) => {
    sinkError = e;
  });
  sink.stdin.on("error", (e) => {
    sinkError ??= e;
  });
  const sinkClosed = new Promise<number | null>((resolve) => sink.on("close", resolve));
  const children = new Set<ReturnType<typeof spawn>>([sink]);
  const timer = setTimeout(() => {
    for (const c of children) c.kill("SIGKILL");
  }, timerMs(timeoutSec));
  const fail = (why: string): InfraError => new InfraError(`${what} failed: ${why}`);
  try {
    for (const [i, args] of tars.entries()) {
      const last = i === tars.length - 1;
      const tar = spawn("tar", ["-c", "-b", "1", ...args], { stdio: ["ignore", "pipe", "pipe"] });
      children.add(tar);
      tar.stderr.on("data", (c: Buffer) => errs.push(c.toString("utf8")));
      const closed = new Promise<number | null>((resolve) => tar.on("close", resolve));
      let spawnError: Error | null = null;
      tar.on("error", (e) => {
        spawnError = e;
      });
      // The last END_BYTES seen are held back until the next chunk shows they were not the end.
      let held = Buffer.alloc(0);
      for await (const chunk of tar.stdout as AsyncIterable<Buffer>) {
        const all = Buffer.concat([held, chunk]);
        const cut = Math.max(0, all.length - END_BYTES);
        held = all.subarray(cut);
        if (cut > 0 && sinkError === null && !sink.stdin.write(all.subarray(0, cut)))
          // Not events.once: it would reject, unheard, on a later stdin error.
          await Promise.race([new Promise((r) => sink.stdin.once("drain", r)), sinkClosed]);
      }
      const code = await closed;
      if (spawnError !== null) throw fail((spawnError as Error).message);
      if (code !== 0) throw fail(lastLines(errs.join(""), 3) || `tar exit ${code}`);
      if (held.length !== END_BYTES || held.some((b) => b !== 0))
        throw fail("a tar stream did not end with two zero blocks");
      if (last && sinkError === null) sink.stdin.write(held);
    }
    sink.stdin.end();
    const code = await sinkClosed;
    if (sinkError !== null) throw fail((sinkError as Error).message);
    if (code !== 0) throw fail(lastLines(errs.join(""), 3) || `exit ${code}`);
  } catch (e) {
    sink.kill("SIGKILL");
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
