const warned = new Set<string>();

/**
 * Writes `message(origin)` to stderr once a process for each (kind, server origin): a server's
 * habit is worth one line, not one per call. `url` that is not a URL is named as it is.
 */
export function warnOncePerServer(kind: string, url: string, message: (origin: string) => string): void {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // Not a URL: named as it is.
  }
  const key = `${kind}\u0000${origin}`;
  if (warned.has(key)) return;
  warned.add(key);
  process.stderr.write(`${message(origin)}\n`);
}
