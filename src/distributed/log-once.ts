/** How long the same line is held back by `onceAMinute`. */
export const REPEAT_MS = 60_000;

/**
 * Logs a line, but the same line again only after REPEAT_MS, saying how often it was held back:
 * a Redis that refuses writes (a primary turned replica, a full disk, an ACL) fails every poll or
 * renewal, many times a second, and one line a minute says it as well.
 */
export function onceAMinute(log: (line: string) => void): (line: string) => void {
  let last = "";
  let at = 0;
  let held = 0;
  return (line) => {
    const now = Date.now();
    if (line === last && now - at < REPEAT_MS) {
      held += 1;
      return;
    }
    log(held > 0 && line === last ? `${line} (${held} more times in the last ${REPEAT_MS / 1000} s)` : line);
    last = line;
    at = now;
    held = 0;
  };
}
