import { UserError } from "../core/errors.js";

/**
 * Harbor's env tables take `${VAR}` and `${VAR:-default}` in values, resolved from the host's
 * environment when the trial runs (how a task asks for an API key without storing it). Anything
 * else in a value is literal.
 */
const TEMPLATE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Names whose templates refer to a host variable that is unset and has no default, with why. */
export function templateProblems(
  vars: Record<string, string>,
  host: NodeJS.ProcessEnv = process.env,
): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(vars)) {
    for (const m of value.matchAll(TEMPLATE)) {
      const ref = m[1] ?? "";
      if (m[2] === undefined && host[ref] === undefined) {
        out.push([name, `needs the host variable ${ref} ("\${${ref}}"), which is not set`]);
      }
    }
  }
  return out;
}

/** The table with every template replaced by the host's value (or its default). */
export function resolveEnvTemplates(
  vars: Record<string, string>,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    out[name] = value.replace(TEMPLATE, (_all, ref: string, fallback: string | undefined) => {
      const v = host[ref];
      // As in the shell: `:-` also replaces an empty value.
      if (fallback !== undefined && (v === undefined || v === "")) return fallback;
      if (v !== undefined) return v;
      throw new UserError(`environment variable ${name}: the host variable ${ref} is not set`);
    });
  }
  return out;
}
