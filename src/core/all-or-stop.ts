/**
 * Waits for every promise. At the first rejection it aborts `stop`, so work still running that
 * listens to `stop.signal` winds down, and once everything has settled it throws that first
 * rejection (not the aborts it caused elsewhere).
 */
export async function allOrStop<T>(promises: readonly Promise<T>[], stop: AbortController): Promise<T[]> {
  const failures: unknown[] = [];
  const watched = promises.map((p) =>
    p.catch((reason: unknown) => {
      if (failures.length === 0) stop.abort(reason);
      failures.push(reason);
      throw reason;
    }),
  );
  const settled = await Promise.allSettled(watched);
  if (failures.length > 0) throw failures[0];
  return settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
}

/** A controller that aborts when `outer` does (with its reason); `release` stops listening. */
export function linkedController(outer: AbortSignal | undefined): {
  stop: AbortController;
  release: () => void;
} {
  const stop = new AbortController();
  const forward = (): void => stop.abort(outer?.reason);
  if (outer?.aborted) forward();
  outer?.addEventListener("abort", forward, { once: true });
  return { stop, release: () => outer?.removeEventListener("abort", forward) };
}

/** A promise's outcome as a value, so one started early can fail before anything awaits it. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise that never rejects: its outcome, to be read (and rethrown) with unsettle. */
export function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

export function unsettle<T>(s: Settled<T>): T {
  if (s.ok) return s.value;
  throw s.error;
}
