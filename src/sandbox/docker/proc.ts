import { spawn } from "node:child_process";
import { InfraError } from "../../core/errors.js";
import { timerMs } from "../../core/timer.js";
import { runHostCommand } from "../host-command.js";
import { lastLines } from "../image/docker-cli.js";

export { dockerBin } from "../image/docker-cli.js";

export interface Collected {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs one process to its end, binary-safe stdout; stdin gets `input` then EOF. Never rejects on exit≠0. */
export async function collect(
  argv: readonly string[],
  input?: Buffer | string,
  timeoutSec = 300,
): Promise<Collected> {
  const r = await runHostCommand(argv, { input: input ?? "", timeoutMs: timerMs(timeoutSec) });
  if (r.spawnFailed) {
    throw new InfraError(`could not run ${argv[0]}: ${r.error?.message}`, { cause: r.error });
  }
  return { code: r.status, stdout: r.stdoutBytes, stderr: r.stderr };
}

/** Like `collect`, but exit≠0 is an InfraError naming `what` with the last lines of stderr. */
export async function collectOk(
  what: string,
  argv: readonly string[],
  input?: Buffer | string,
): Promise<Buffer> {
  const r = await collect(argv, input);
  if (r.code !== 0) throw new InfraError(`${what} failed: ${lastLines(r.stderr, 3) || `exit ${r.code}`}`);
  return r.stdout;
}

/** `from | to`, both run to their end; InfraError when either fails. */
export function pipeOk(
  what: string,
  from: readonly string[],
  to: readonly string[],
  timeoutSec = 300,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const [c1, ...a1] = from;
    const [c2, ...a2] = to;
    const p1 = spawn(c1 ?? "false", a1, { stdio: ["ignore", "pipe", "pipe"] });
    const p2 = spawn(c2 ?? "false", a2, { stdio: ["pipe", "ignore", "pipe"] });
    const errs: string[] = [];
    p1.stderr.on("data", (c: Buffer) => errs.push(c.toString("utf8")));
    p2.stderr.on("data", (c: Buffer) => errs.push(c.toString("utf8")));
    p1.stdout.pipe(p2.stdin);
    p2.stdin.on("error", () => undefined);
    const timer = setTimeout(() => {
      p1.kill("SIGKILL");
      p2.kill("SIGKILL");
    }, timerMs(timeoutSec));
    const codes: (number | null)[] = [];
    let failed: Error | null = null;
    const done = (code: number | null): void => {
      codes.push(code);
      if (codes.length < 2) return;
      clearTimeout(timer);
      if (failed !== null) reject(new InfraError(`${what} failed: ${failed.message}`, { cause: failed }));
      else if (codes.some((c) => c !== 0)) {
        reject(new InfraError(`${what} failed: ${lastLines(errs.join(""), 3) || `exit ${codes.join(",")}`}`));
      } else resolve();
    };
    for (const p of [p1, p2]) {
      p.on("error", (e) => {
        failed = e;
      });
      p.on("close", done);
    }
  });
}
