import { SEALED_RUN_SANDBOX_DIR, sealedRunDir } from "../grading/sealed-run-path.js";
import { AGENT_ROOT_DIR } from "../sandbox/image-fresh-root.js";
import { isWithin } from "../sandbox/spec.js";
import type { ExecOptions, Mount } from "../sandbox/types.js";
import type { VerifierRoot } from "../task/config.js";
import type { Task } from "../task/types.js";
import { verifierTaskEnv } from "./task-env.js";

/**
 * What the verifier sees beyond the agent's sandbox: the task's tests (read-only at /tests, the
 * verifier kit tests/lh.py among them) and the sealed runner at /longhaul/kit/sealed-run, the one
 * documented exception to "the task carries all its grading code" (without it the kit runs the
 * agent's programs unsealed and says so). Neither is ever mounted while an agent process exists.
 */
export function verifierMounts(task: Task): Mount[] {
  return [
    { hostPath: task.paths.tests, sandboxPath: "/tests", readonly: true },
    { hostPath: sealedRunDir(), sandboxPath: SEALED_RUN_SANDBOX_DIR, readonly: true },
  ];
}

/**
 * The verifier's environment, given explicitly (nothing is inherited from the host or the agent):
 * Python ignores user site-packages and writes no bytecode next to the tests. The task's
 * [environment.env] and [verifier.env] come over these defaults; longhaul's own LONGHAUL_*
 * variables come last, so a task cannot point the verifier at another seed.
 */
export function verifierEnv(task: Task, seed: number): Record<string, string> {
  // An image's own ENV (PATH to a venv, HOME of its USER) must reach the verifier as it reaches
  // every command in the image, so only host tasks get these three from longhaul.
  const system: Record<string, string> =
    task.image === null
      ? {
          PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
          HOME: "/root",
          LANG: "C.UTF-8",
        }
      : {};
  return {
    ...system,
    PYTHONNOUSERSITE: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    ...verifierTaskEnv(task),
    LONGHAUL_SEED: String(seed),
    LONGHAUL_VERIFIER_DIR: "/logs/verifier",
    LONGHAUL_WORKDIR: task.config.environment.workdir,
  };
}

/**
 * Who the verifier runs as, over an image: `[verifier] user`, else the image's USER (what a
 * container exec does by default) when `[agent] user` moved the agent off it; undefined: the
 * sandbox's own user. A host task has no users of its own (its load warns).
 */
export function verifierUser(task: Task, imageUser: string | null | undefined): string | undefined {
  if (task.image === null) return undefined;
  const c = task.config;
  if (c.verifier.user !== null) return c.verifier.user;
  return c.agent.user !== null ? (imageUser ?? "0") : undefined;
}

/**
 * The folders the verifier gets new and empty: its own, not the agent's (the host removes links
 * from the workdir into them). A workdir inside one of them (an image's WORKDIR /root) must stay
 * what the agent left, so that one is not.
 */
export function verifierFreshDirs(workdir: string): string[] {
  return ["/root", "/tmp"].filter((d) => !isWithin(workdir, d));
}

/** Where the verifier starts: a folder the agent never wrote (read-only, from the task). */
export const VERIFIER_CWD = "/tests";

/**
 * Everything of the verifier's exec besides its command and limits. Its home and /tmp start
 * empty (the agent's files there are not loaded by any interpreter), it starts outside the
 * agent's workdir (which stays mounted, so outputs can be graded), and it may nest sandboxes
 * so the sealed runner can run the agent's program away from /tests and the seed.
 */
export function verifierExecOptions(
  task: Task,
  seed: number,
  nestingAllowed = true,
): Pick<ExecOptions, "mounts" | "env" | "cwd" | "freshDirs" | "nestedSandbox" | "imageRoot"> {
  const workdir = task.config.environment.workdir;
  // A host task's verifier never sees what the agent changed in the system: bwrap shows the
  // host's system folders read-only (and ignores imageRoot), while docker, which runs host tasks
  // over its default image with a writable root, runs the verifier on a fresh copy of that image.
  const imageRoot = task.image === null || verifierRoot(task) === "image";
  return {
    mounts: verifierMounts(task),
    env: imageRoot
      ? { ...verifierEnv(task, seed), LONGHAUL_AGENT_ROOT: AGENT_ROOT_DIR }
      : verifierEnv(task, seed),
    cwd: VERIFIER_CWD,
    freshDirs: verifierFreshDirs(workdir),
    // Where the provider forbids nesting (docker), the sealed runner cannot start and
    // says so (a grading error); plain Harbor verifiers do not need it.
    nestedSandbox: nestingAllowed,
    imageRoot,
  };
}

/**
 * What an image task's verifier runs on. "image": a fresh copy of the image with the agent's
 * workdir laid over it, so nothing the agent changed in the system (a Python .pth file, a
 * replaced interpreter, /etc/ld.so.preload) runs inside the grader; the agent's programs still
 * run on the agent's system through the sealed runner (LONGHAUL_AGENT_ROOT). "sandbox": the
 * agent's root as it left it, as Harbor's verifier does, for checks of the system's state. The
 * default is "image" for tasks graded by a rubric (their checks read the workdir and run the
 * agent's programs) and "sandbox" for plain Harbor tasks. Host tasks: not applicable (null).
 */
export function verifierRoot(task: Task): VerifierRoot | null {
  if (task.image === null) return null;
  return task.config.verifier.root ?? (task.rubric.source !== null ? "image" : "sandbox");
}

/**
 * LONGHAUL_RUN_DEADLINE for a verifier that must end within `timeoutSec` from `nowMs`: the Unix
 * second after which the sealed runner starts no candidate program (and lh.py stops grading). It
 * leaves the grader a reserve (a tenth of the limit, 10–60 s; a third of very short limits) to
 * score what it reached, so a candidate that hangs is scored 0 rather than ending as a grading
 * error at the hard limit.
 */
export function runDeadline(timeoutSec: number, nowMs: number): number {
  const reserve = Math.min(60, Math.max(Math.min(10, timeoutSec / 3), timeoutSec * 0.1));
  return Math.floor(nowMs / 1000 + timeoutSec - reserve);
}
