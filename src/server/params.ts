import { isAbsolute, join, relative } from "node:path";
import { z } from "zod";
import { OUTCOMES, UserError } from "../core/index.js";
import { TRIAL_SORTS, type TrialPageRequest } from "../store/trial-query.js";

/**
 * Job and trial ids are folder names made by `safeName` (letters, digits, `._-`, never a leading
 * dot), so anything else in a path parameter — `..`, a slash, a NUL — is refused before it reaches
 * the file system.
 */
const ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;

export function checkId(kind: "job" | "trial", value: string): string {
  if (!ID.test(value)) throw new UserError(`invalid ${kind} id "${value.slice(0, 80)}"`);
  return value;
}

/** `<jobsDir>/<parts...>`, refusing any result that is not strictly inside jobsDir. */
export function insideJobsDir(jobsDir: string, ...parts: string[]): string {
  const path = join(jobsDir, ...parts);
  const rel = relative(jobsDir, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) {
    throw new UserError(`path ${parts.join("/")} is outside the jobs folder`);
  }
  return path;
}

/** HTML forms send empty fields as "", which means "no filter". */
const optionalText = z.preprocess((v) => (v === "" ? undefined : v), z.string().max(300).optional());
const optionalFraction = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce.number().min(0).max(1).optional(),
);

export const PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;

export const trialListQuerySchema = z.object({
  model: optionalText,
  agent: optionalText,
  task: optionalText,
  outcome: z.preprocess((v) => (v === "" ? undefined : v), z.enum(OUTCOMES).optional()),
  r_min: optionalFraction,
  r_max: optionalFraction,
  sort: z.preprocess((v) => (v === "" ? undefined : v), z.enum(TRIAL_SORTS).default("trial")),
  order: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["asc", "desc"]).default("asc")),
  limit: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(500).default(DEFAULT_PAGE_SIZE),
  ),
  offset: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).default(0)),
});
export type TrialListQuery = z.infer<typeof trialListQuerySchema>;

export function parseTrialListQuery(query: Record<string, string>): TrialListQuery {
  const parsed = trialListQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`query ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  if (
    parsed.data.r_min !== undefined &&
    parsed.data.r_max !== undefined &&
    parsed.data.r_min > parsed.data.r_max
  ) {
    throw new UserError(`query r_min: ${parsed.data.r_min} is above r_max ${parsed.data.r_max}`);
  }
  return parsed.data;
}

export function toPageRequest(q: TrialListQuery): TrialPageRequest {
  return {
    filter: {
      model: q.model,
      agent: q.agent,
      task: q.task,
      outcome: q.outcome,
      rMin: q.r_min,
      rMax: q.r_max,
    },
    sort: q.sort,
    desc: q.order === "desc",
    limit: q.limit,
    offset: q.offset,
  };
}

/** The query string for the same list with some fields changed; defaults are left out to keep URLs short. */
export function listQueryString(q: TrialListQuery, change: Partial<TrialListQuery> = {}): string {
  const merged = { ...q, ...change };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) {
    if (value === undefined) continue;
    if (key === "sort" && value === "trial") continue;
    if (key === "order" && value === "asc") continue;
    if (key === "limit" && value === DEFAULT_PAGE_SIZE) continue;
    if (key === "offset" && value === 0) continue;
    params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * The trial page's query: `steps_from`, the position (1 for the first step, in file order) of a
 * window of steps to show instead of the trajectory's ends.
 */
export const trialPageQuerySchema = z.object({
  steps_from: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  ),
});
export type TrialPageQuery = z.infer<typeof trialPageQuerySchema>;

export function parseTrialPageQuery(query: Record<string, string>): TrialPageQuery {
  const parsed = trialPageQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`query ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}
