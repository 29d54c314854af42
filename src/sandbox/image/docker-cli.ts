import { spawn } from "node:child_process";
import { InfraError, UserError } from "../../core/errors.js";

export const DOCKER_INSTALL_HINT =
  "docker is not available: run `apt-get install -y docker.io` and start the daemon " +
  "(`dockerd --bridge=none --iptables=false &` where no bridge network is allowed)";

/** The docker client binary (LONGHAUL_DOCKER overrides it). */
export function dockerBin(): string {
  return process.env.LONGHAUL_DOCKER ?? "docker";
}

export interface DockerRunOptions {
  /** Wall-clock limit in seconds; the client is killed at expiry (default 120). */
  timeoutSec?: number;
  stdin?: string | Buffer;
  /** Receives output as it arrives (build logs), besides the captured copy. */
  onOutput?: (chunk: Buffer) => void;
  /** Bytes kept of each stream (the tail is kept: errors come last). Default 4 MiB. */
  maxOutputBytes?: number;
}

export interface DockerResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs the docker client once. Never throws for a non-zero exit; throws InfraError if it cannot start. */
export function docker(args: readonly string[], options: DockerRunOptions = {}): Promise<DockerResult> {
  const cap = options.maxOutputBytes ?? 4 << 20;
  return new Promise((resolve, reject) => {
    const child = spawn(dockerBin(), args, { stdio: ["pipe", "pipe", "pipe"] });
    const out = tail(cap);
    const err = tail(cap);
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill("SIGKILL");
      },
      (options.timeoutSec ?? 120) * 1000,
    );
    child.stdout.on("data", (c: Buffer) => {
      out.push(c);
      options.onOutput?.(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      err.push(c);
      options.onOutput?.(c);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      const code = (e as NodeJS.ErrnoException).code;
      reject(code === "ENOENT" ? new UserError(DOCKER_INSTALL_HINT) : new InfraError(`docker: ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, stdout: out.text(), stderr: err.text(), timedOut });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? "");
  });
}

/** Like `docker`, but a non-zero exit is an InfraError quoting the client's last words. */
export async function dockerOk(args: readonly string[], options: DockerRunOptions = {}): Promise<string> {
  const r = await docker(args, options);
  if (r.exitCode !== 0) {
    const why = r.timedOut
      ? `timed out after ${options.timeoutSec ?? 120} s`
      : lastLines(r.stderr || r.stdout, 5);
    throw new InfraError(`docker ${args[0] ?? ""} failed: ${why}`);
  }
  return r.stdout;
}

/** null when a daemon answers; else why not, as one line. */
export async function dockerUnavailable(): Promise<string | null> {
  try {
    const r = await docker(["version", "--format", "{{.Server.Version}}"], { timeoutSec: 20 });
    if (r.exitCode === 0 && r.stdout.trim() !== "") return null;
    return `the Docker daemon does not answer (${lastLines(r.stderr, 1) || "no output"}); ${DOCKER_INSTALL_HINT}`;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function lastLines(text: string, n: number): string {
  return text.trimEnd().split("\n").slice(-n).join("\n");
}

function tail(cap: number): { push(c: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(c) {
      chunks.push(c);
      size += c.length;
      while (size > cap && chunks.length > 1) size -= chunks.shift()?.length ?? 0;
    },
    text: () => {
      const all = Buffer.concat(chunks);
      return all.subarray(Math.max(0, all.length - cap)).toString("utf8");
    },
  };
}
