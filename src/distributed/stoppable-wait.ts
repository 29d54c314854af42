/** Thrown by `orStop` when the coordinator is told to stop while waiting (on Redis). */
export class Stopped extends Error {}

/** `p`, or a Stopped error as soon as `signal` aborts: a Redis command can wait forever. */
export function orStop<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new Stopped("stopped"));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Stopped("stopped"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A wait of `ms` that does not keep the process alive. */
export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** A wait of `ms` that ends early, without an error, when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
