import { UserError } from "../core/index.js";

/** What a password is shown as, in messages and in the resume command a report prints. */
export const REDACTED = "***";

/**
 * A Redis URL with its password masked, fit for messages, logs and a job's config.json: both
 * places ioredis reads one from are masked, the user part (`:PASSWORD@`, up to the last `@`,
 * as URL parsing reads it) and a `password=` query parameter. Everything else (user name, host,
 * port, database, other parameters) is kept, so the URL still says which queue it was.
 */
export function redactUrl(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    // Not parseable (a bad port): the user part is masked by its shape.
    return url.replace(/^(rediss?:\/\/[^:@/]*:)[^/]*@/, `$1${REDACTED}@`);
  }
  let changed = false;
  if (parsed.password !== "") {
    parsed.password = REDACTED;
    changed = true;
  }
  if (parsed.searchParams.has("password")) {
    parsed.searchParams.set("password", REDACTED);
    changed = true;
  }
  // Unchanged, the URL is shown as written, not as URL parsing would spell it.
  return changed ? parsed.href : url;
}

/**
 * Checks a Redis URL before ioredis sees it: ioredis throws a bare TypeError for a bad port and
 * silently ignores a DB index it cannot parse.
 */
export function checkRedisUrl(url: string): void {
  const shown = redactUrl(url);
  const usage = "expected redis://[:password@]host:port[/db] (or rediss://)";
  if (!/^rediss?:\/\//.test(url)) throw new UserError(`${shown}: not a Redis URL; ${usage}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`${shown}: not a valid Redis URL (bad host or port); ${usage}`);
  }
  if (parsed.hostname === "") throw new UserError(`${shown}: no host; ${usage}`);
  if (!/^(\/\d{0,9})?\/?$/.test(parsed.pathname))
    throw new UserError(`${shown}: the database must be a number (/0, /1, …); ${usage}`);
}
