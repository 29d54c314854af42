import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { InfraError } from "../../core/index.js";

interface Pending {
  resolve: (out: string) => void;
  reject: (e: Error) => void;
}

/** A command the server has not answered in this long is stuck: fail it rather than hang the agent. */
const COMMAND_MS = 30_000;
/**
 * Attaching is an optimisation (callers fall back to one tmux client per command), so a control
 * client that has not attached and answered its first command by then is given up early.
 */
const ATTACH_MS = 10_000;

const SAFE_ARG = /^[A-Za-z0-9_.:/=,+@%-]+$/;

/** Quotes one argument for tmux's command parser; callers never pass single quotes. */
export function quoteTmuxArg(a: string): string {
  if (SAFE_ARG.test(a)) return a;
  if (a.includes("'") || a.includes("\n"))
    throw new InfraError(`cannot pass ${JSON.stringify(a)} to tmux control mode`);
  return `'${a}'`;
}

/**
 * A persistent tmux client in control mode (`tmux -C`). Spawning a client per command costs tens
 * of milliseconds on a busy machine; one long-lived client answers in well under one. Every
 * command we send yields one `%begin … %end|%error` block, in order, with flags 1.
 */
export class TmuxControl {
  private readonly queue: Pending[] = [];
  private block: string[] | null = null;
  private closed = false;
  private onReady: (() => void) | null = null;

  private constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    const rl = createInterface({ input: proc.stdout });
    rl.on("line", (line) => this.onLine(line));
    proc.on("exit", () => this.fail(new InfraError("tmux control client exited")));
    proc.on("error", (e) => this.fail(new InfraError(`tmux control client: ${e.message}`)));
    proc.stdin.on("error", () => undefined);
  }

  static async attach(socket: string, session: string): Promise<TmuxControl> {
    const proc = spawn("tmux", ["-S", socket, "-C", "attach-session", "-t", session], { stdio: "pipe" });
    const c = new TmuxControl(proc);
    // Commands sent before the attach completes fail with "no current client".
    await withDeadline(
      new Promise<void>((resolve, reject) => {
        c.onReady = resolve;
        c.queue.push({ resolve: () => undefined, reject });
      }),
      () => {
        c.close();
        return new InfraError(`tmux control client did not attach within ${ATTACH_MS} ms`);
      },
      ATTACH_MS,
    );
    c.queue.shift();
    // Output notifications would flood the pipe with everything the terminal prints.
    await c.run(["refresh-client", "-f", "no-output"], ATTACH_MS);
    return c;
  }

  private onLine(line: string): void {
    if (line.startsWith("%session-changed") && this.onReady) {
      this.onReady();
      this.onReady = null;
      return;
    }
    if (this.block === null) {
      if (/^%begin \d+ \d+ 1$/.test(line)) this.block = [];
      return;
    }
    const end = /^%(end|error) \d+ \d+ 1$/.exec(line);
    if (!end) {
      this.block.push(line);
      return;
    }
    const out = this.block.join("\n");
    this.block = null;
    const p = this.queue.shift();
    if (!p) return;
    if (end[1] === "end") p.resolve(out);
    else p.reject(new InfraError(`tmux: ${out}`));
  }

  private fail(e: Error): void {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(e);
  }

  /** Whether commands can still be sent (false once the client exited, failed or was closed). */
  get open(): boolean {
    return !this.closed;
  }

  run(args: string[], deadlineMs = COMMAND_MS): Promise<string> {
    if (this.closed) return Promise.reject(new InfraError("tmux control client is closed"));
    const line = `${args.map(quoteTmuxArg).join(" ")}\n`;
    return withDeadline(
      new Promise<string>((resolve, reject) => {
        this.queue.push({ resolve, reject });
        this.proc.stdin.write(line);
      }),
      () => {
        // Answers come in order: once one is lost, every later one would be misattributed.
        const e = new InfraError(`tmux ${args[0] ?? ""}: no answer within ${deadlineMs} ms`);
        this.fail(e);
        this.proc.kill();
        return e;
      },
      deadlineMs,
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.proc.stdin.end();
    this.proc.kill();
  }
}

function withDeadline<T>(p: Promise<T>, onTimeout: () => Error, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}
