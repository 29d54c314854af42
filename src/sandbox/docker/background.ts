import { InfraError, UserError } from "../../core/errors.js";

/**
 * What a docker sandbox's background processes (spawnBackground) share: the nesting check an exec
 * makes too, and the abort signal that ends the process. `docker exec -d` and `docker run -d`
 * return as soon as the process runs, so no client stands for it as bwrap does (whose process
 * group the signal kills): the sandbox ends it inside docker instead.
 */

/** Throws the UserError of a command that asks to nest sandboxes where docker cannot allow it. */
export function assertNesting(o: { nestedSandbox?: boolean }, allowed: boolean): void {
  if (o.nestedSandbox === true && !allowed) {
    throw new UserError(
      "this docker sandbox cannot let a command build sandboxes of its own: docker's seccomp " +
        "profile forbids user namespaces unless the sandbox is made for nesting (a task's " +
        "[requires] nested_sandbox = true)",
    );
  }
}

/**
 * The error of a background process whose signal was aborted before it was up: it is not started,
 * or stopped again at once (bwrap, killed before its launcher reports, fails the same way).
 */
export function abortedBeforeStart(command: readonly string[]): InfraError {
  return new InfraError(
    `background process ${command.join(" ")} ended before it started: its signal was aborted`,
  );
}

/**
 * The background processes of one sandbox that an abort signal may still end: each registers the
 * way to stop it, and is forgotten once it was stopped, killAll ended them all, or the sandbox closed.
 */
export class AbortWatch {
  private readonly detachers = new Set<() => void>();

  /**
   * Stops the just-started process when `signal` aborts. Already aborted: stops it now and throws
   * (abortedBeforeStart), as the caller asked for it to be gone before it was up.
   */
  async watch(
    signal: AbortSignal | undefined,
    command: readonly string[],
    stop: () => Promise<void>,
  ): Promise<void> {
    if (signal === undefined) return;
    if (signal.aborted) {
      await stop().catch(() => undefined);
      throw abortedBeforeStart(command);
    }
    const onAbort = (): void => {
      detach();
      // Failures are the sandbox's to report at killAll/close, which end every process anyway.
      stop().catch(() => undefined);
    };
    const detach = (): void => {
      signal.removeEventListener("abort", onAbort);
      this.detachers.delete(detach);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    this.detachers.add(detach);
  }

  /** Forgets every watched process (killAll ended them, or the sandbox is closing). */
  clear(): void {
    for (const d of [...this.detachers]) d();
  }
}
