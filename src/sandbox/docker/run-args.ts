import type { SandboxSpec } from "../types.js";
import { EXEC_MARKER, WRAPPER, WRAPPER_NAME } from "./scripts.js";

/**
 * `docker run` arguments every container of a sandbox shares: the agent's own and the fresh one
 * an exec on the image's root gets (ExecOptions.imageRoot), so both run under the same limits,
 * network and confinement.
 */
export function confinementArgs(spec: SandboxSpec): string[] {
  const mb = `${spec.memoryMb}m`;
  return [
    "--hostname",
    "sandbox",
    // No bridge here (dockerd --bridge=none): with internet the container shares the host's network.
    "--network",
    spec.allowInternet ? "host" : "none",
    "--memory",
    mb,
    "--memory-swap",
    mb,
    "--cpus",
    String(spec.cpus),
    "--pids-limit",
    String(spec.pidsMax),
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    // Nesting (bwrap in the image, for the grader kit's sealed-run) needs user namespaces, which
    // docker's default seccomp profile refuses, and CAP_SETFCAP, without which a new user
    // namespace may not map uid 0. Both only for sandboxes that asked for nesting; the bounding
    // set stays empty otherwise, so file capabilities cannot raise anything else.
    ...(spec.nesting === true ? ["--security-opt", "seccomp=unconfined", "--cap-add", "SETFCAP"] : []),
  ];
}

/**
 * `--mount` for a bind. Its value is one CSV record, so a field holding a comma or a quote is
 * quoted (a path with a comma would otherwise be read as another field).
 */
export function bindArg(m: { hostPath: string; sandboxPath: string; readonly: boolean }): string[] {
  const field = (f: string): string => (/[,"\n\r]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
  const fields = ["type=bind", `source=${m.hostPath}`, `target=${m.sandboxPath}`];
  return ["--mount", [...fields.map(field), ...(m.readonly ? ["readonly"] : [])].join(",")];
}

/** `-e NAME=value` for each variable, as `docker run` and `docker exec` take them. */
export function envArgs(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
}

/**
 * `docker exec` arguments (after the binary) of a command under the exec wrapper (scripts.ts),
 * marked with `execId` so the killer finds its session: attached (`-i`) for an exec, detached
 * (`-d`) for a background process.
 */
export function wrappedExecArgs(w: {
  mode: "-i" | "-d";
  container: string;
  user: string;
  cwd: string;
  env: Record<string, string>;
  execId: string;
  argv: readonly string[];
}): string[] {
  const env = envArgs({ ...w.env, [EXEC_MARKER]: w.execId });
  return [
    "exec",
    w.mode,
    "-u",
    w.user,
    "-w",
    w.cwd,
    ...env,
    w.container,
    "bash",
    "-c",
    WRAPPER,
    WRAPPER_NAME,
    ...w.argv,
  ];
}
