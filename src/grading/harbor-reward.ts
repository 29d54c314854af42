import { errorMessage } from "../core/errors.js";

/**
 * Harbor's reward files for a task without rubric.toml, read as Harbor reads them:
 * - reward.txt (checked first, as in Harbor): its first line is one number, R;
 * - reward.json: an object whose numeric keys are metrics, all recorded. R is the only key's
 *   value when there is one key (Harbor's own metrics need exactly one), else the "reward" key
 *   when present, else the mean of the numeric keys (Harbor leaves several keys to a dataset's
 *   own metric script; longhaul needs one R per trial and documents this rule in docs/tasks.md).
 */
export interface HarborReward {
  reward: number | null;
  /** Every numeric top-level key (reward.txt gives { reward: R }); null when unreadable. */
  metrics: Record<string, number> | null;
  errors: string[];
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function readHarborReward(rewardTxt: string | null, rewardJson: string | null): HarborReward {
  if (rewardTxt !== null) {
    const first = (rewardTxt.trim().split("\n")[0] ?? "").trim();
    const value = DECIMAL.test(first) ? Number(first) : Number.NaN;
    if (Number.isNaN(value)) {
      return {
        reward: null,
        metrics: null,
        errors: [`reward.txt must start with one number, got ${show(first)}`],
      };
    }
    return { reward: value, metrics: { reward: value }, errors: [] };
  }
  if (rewardJson === null)
    return { reward: null, metrics: null, errors: ["the verifier wrote neither reward.json nor reward.txt"] };
  let parsed: unknown;
  try {
    parsed = parsePythonJson(rewardJson);
  } catch (e) {
    return { reward: null, metrics: null, errors: [`reward.json is not valid JSON: ${errorMessage(e)}`] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return {
      reward: null,
      metrics: null,
      errors: [`reward.json must be a JSON object of metric → number, got ${show(parsed)}`],
    };
  }
  const entries = Object.entries(parsed);
  const metrics: Record<string, number> = {};
  for (const [k, v] of entries) if (typeof v === "number" && Number.isFinite(v)) metrics[k] = v;
  const keys = Object.keys(metrics);
  if ("reward" in parsed) {
    const r = (parsed as Record<string, unknown>).reward;
    if (typeof r !== "number" || !Number.isFinite(r)) {
      return { reward: null, metrics, errors: [`reward.json "reward" must be a number, got ${show(r)}`] };
    }
    return { reward: r, metrics, errors: [] };
  }
  if (keys.length === 0) {
    return { reward: null, metrics, errors: ["reward.json has no numeric key to score"] };
  }
  const reward = keys.reduce((s, k) => s + (metrics[k] ?? 0), 0) / keys.length;
  return { reward, metrics, errors: [] };
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The non-finite numbers Python's json.dump writes by default (allow_nan=True). */
const PYTHON_NON_FINITE = ["-Infinity", "Infinity", "NaN"] as const;

/**
 * JSON.parse, also taking the NaN, Infinity and -Infinity that Python's json module writes for
 * float("nan") and float("inf") and reads back (Harbor's verifier reads reward.json with it, so
 * `{"reward": 1.0, "f1": NaN}` is a reward of 1 there). Each is read as its name, a string, so it
 * is no metric and a "reward" of NaN is refused by name. Valid JSON is parsed unchanged.
 */
export function parsePythonJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    let out = "";
    let inString = false;
    let changed = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] ?? "";
      if (inString) {
        if (c === "\\") {
          out += c + (text[i + 1] ?? "");
          i++;
          continue;
        }
        if (c === '"') inString = false;
        out += c;
        continue;
      }
      if (c === '"') inString = true;
      const token = PYTHON_NON_FINITE.find((t) => text.startsWith(t, i));
      if (token === undefined) {
        out += c;
        continue;
      }
      out += JSON.stringify(token);
      i += token.length - 1;
      changed = true;
    }
    if (!changed) throw e;
    try {
      return JSON.parse(out);
    } catch {
      throw e; // broken apart from them: the message is about the file as written
    }
  }
}
