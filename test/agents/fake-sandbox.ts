import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ExecOptions, ExecResult, Sandbox, SandboxSpec } from "../../src/sandbox/types.js";

/**
 * A host-only stand-in for a sandbox: commands run on the host in a temp workdir, `/logs/…` maps
 * to a temp folder, and background processes are tracked so the agent loop can be tested without
 * bwrap. It isolates nothing and exists for tests only.
 */
export class HostFakeSandbox implements Sandbox {
  readonly id: string;
  readonly spec: SandboxSpec;
  readonly root: string;
  readonly logs: string;
  private readonly bg: ChildProcess[] = [];

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), "lh-fake-sb-"));
    this.logs = join(this.root, "logs");
    const work = join(this.root, "app");
    mkdirSync(this.logs);
    mkdirSync(work);
    this.id = this.root;
    this.spec = {
      environmentDir: null,
      workdir: work,
      memoryMb: 1024,
      cpus: 1,
      pidsMax: 256,
      allowInternet: false,
      stateDir: this.root,
    };
  }

  private map(p: string): string {
    return p.startsWith("/logs/") || p === "/logs" ? join(this.logs, p.slice("/logs".length)) : p;
  }

  exec(command: string | string[], o: ExecOptions = {}): Promise<ExecResult> {
    const argv = typeof command === "string" ? ["bash", "-c", command] : command.map((a) => this.map(a));
    const t0 = performance.now();
    return new Promise((resolve) => {
      const child = spawn(argv[0] ?? "true", argv.slice(1), {
        cwd: o.cwd ?? this.spec.workdir,
        env: { ...process.env, HOME: this.root, ...o.env },
        detached: true,
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      const cap = o.maxOutputBytes ?? 1 << 20;
      let truncated = false;
      child.stdout.on("data", (d: Buffer) => {
        if (stdout.length < cap) stdout += d.toString();
        else truncated = true;
      });
      child.stderr.on("data", (d: Buffer) => {
        if (stderr.length < cap) stderr += d.toString();
        else truncated = true;
      });
      const timer =
        o.timeoutSec === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              try {
                if (child.pid) process.kill(-child.pid, "SIGKILL");
              } catch {
                // already exited
              }
            }, o.timeoutSec * 1000);
      // Commands that never read stdin may exit before it is written.
      child.stdin.on("error", () => undefined);
      child.stdin.end(o.stdin ?? "");
      child.on("close", (code, signal) => {
        if (timer) clearTimeout(timer);
        resolve({
          exitCode: code,
          signal,
          stdout: stdout.slice(0, cap),
          stderr: stderr.slice(0, cap),
          timedOut,
          truncated,
          durationSec: (performance.now() - t0) / 1000,
        });
      });
    });
  }

  async spawnBackground(command: string[], o: Omit<ExecOptions, "timeoutSec" | "stdin"> = {}): Promise<void> {
    const argv = command.map((a) => this.map(a));
    const child = spawn(argv[0] ?? "true", argv.slice(1), {
      cwd: o.cwd ?? this.spec.workdir,
      env: { ...process.env, HOME: this.root, HISTFILE: "/dev/null", PS1: "$ ", ...o.env },
      detached: true,
      stdio: "ignore",
    });
    this.bg.push(child);
  }

  hostPathOf(p: string): string | null {
    return p.startsWith("/logs") ? this.map(p) : null;
  }

  async upload(hostPath: string, sandboxPath: string): Promise<void> {
    mkdirSync(dirname(this.map(sandboxPath)), { recursive: true });
    cpSync(hostPath, this.map(sandboxPath), { recursive: true });
  }

  async download(sandboxPath: string, hostPath: string): Promise<void> {
    cpSync(this.map(sandboxPath), hostPath, { recursive: true });
  }

  async killAll(): Promise<void> {
    for (const c of this.bg.splice(0)) {
      try {
        if (c.pid) process.kill(-c.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }

  async close(): Promise<void> {
    await this.killAll();
    // Shells inside tmux get SIGHUP asynchronously and may still write into the folder briefly.
    for (let i = 0; ; i++) {
      try {
        rmSync(this.root, { recursive: true, force: true, maxRetries: 5 });
        return;
      } catch (e) {
        if (i >= 20) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
