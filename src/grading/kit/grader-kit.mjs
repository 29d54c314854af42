// longhaul grader kit: dependency-free, runs under plain `node` inside the sandbox.
// Mounted read-only at /longhaul/kit/grader-kit.mjs. The format it writes is documented in
// docs/grader-kit.md; the host reads it in src/grading/reward.ts.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

const ID_PATTERN = /^[a-z0-9_]+$/;
const DECAYS = ["linear", "exponential", "relative"];
const EXIT_GRACE_MS = 2000;

// ---------------------------------------------------------------- pure helpers

/** x limited to [0, 1]; NaN becomes 0 so a broken computation never earns credit. */
export function clamp01(x) {
  if (typeof x !== "number" || Number.isNaN(x)) return 0;
  return Math.min(1, Math.max(0, x));
}

export function mean(values) {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function weightedMean(items) {
  let num = 0;
  let den = 0;
  for (const { value, weight } of items) {
    num += weight * value;
    den += weight;
  }
  return den > 0 ? num / den : Number.NaN;
}

export function relativeError(got, expected) {
  return Math.abs(got - expected) / Math.max(Math.abs(expected), 1e-12);
}

/** 1 within tolerance, 0 at or beyond cutoff, and a decay curve in between. */
export function scoreContinuous({ error, tolerance, cutoff, decay = "linear", rate = 5 }) {
  if (typeof error !== "number" || Number.isNaN(error)) {
    throw new TypeError(`error must be a number, got ${describe(error)}`);
  }
  if (typeof tolerance !== "number" || !(tolerance >= 0)) {
    throw new TypeError(`tolerance must be a number >= 0, got ${describe(tolerance)}`);
  }
  if (typeof cutoff !== "number" || !(cutoff > tolerance)) {
    throw new TypeError(`cutoff must be a number > tolerance (${tolerance}), got ${describe(cutoff)}`);
  }
  if (!DECAYS.includes(decay)) {
    throw new TypeError(`decay must be one of ${DECAYS.join(", ")}, got ${describe(decay)}`);
  }
  const e = Math.abs(error);
  if (e <= tolerance) return 1;
  if (e >= cutoff) return 0;
  const x = (e - tolerance) / (cutoff - tolerance);
  if (decay === "linear") return clamp01(1 - x);
  if (decay === "exponential") {
    if (!(rate > 0)) throw new TypeError(`rate must be > 0, got ${describe(rate)}`);
    return clamp01((Math.exp(-rate * x) - Math.exp(-rate)) / (1 - Math.exp(-rate)));
  }
  if (!(tolerance > 0)) throw new TypeError("relative decay needs tolerance > 0");
  return clamp01(1 - Math.log(e / tolerance) / Math.log(cutoff / tolerance));
}

// Same algorithm as the host's Rng (src/core/rng.ts): SplitMix32 seeding, then xoshiro128**.
// Keeping them identical lets host-side tools regenerate exactly the cases a grader used.
export function createRng(seed) {
  let x = typeof seed === "number" ? seed >>> 0 : hashString(String(seed));
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const s = [splitmix(), splitmix(), splitmix(), splitmix()];
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  const rotl = (v, k) => ((v << k) | (v >>> (32 - k))) >>> 0;
  const rng = {
    nextU32() {
      const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
      const t = (s[1] << 9) >>> 0;
      s[2] = (s[2] ^ s[0]) >>> 0;
      s[3] = (s[3] ^ s[1]) >>> 0;
      s[1] = (s[1] ^ s[2]) >>> 0;
      s[0] = (s[0] ^ s[3]) >>> 0;
      s[2] = (s[2] ^ t) >>> 0;
      s[3] = rotl(s[3], 11);
      return result;
    },
    next: () => rng.nextU32() / 4294967296,
    int(min, max) {
      if (max < min) throw new RangeError(`int(${min}, ${max}): max < min`);
      return min + Math.floor(rng.next() * (max - min + 1));
    },
    pick(items) {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return items[rng.int(0, items.length - 1)];
    },
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
    fork: (label) => createRng(`${s[0]}:${s[1]}:${s[2]}:${s[3]}:${label}`),
  };
  return rng;
}

export function hashString(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Subtask weights from a rubric.toml. Only the `[[subtask]]` tables' `id` and `weight` keys are
 * read: enough for the total the kit writes, without shipping a TOML parser into the sandbox.
 */
export function parseRubricWeights(text) {
  const weights = new Map();
  let current = null;
  const flush = () => {
    if (current?.id !== undefined) weights.set(current.id, current.weight ?? 1);
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (line === "") continue;
    if (line.startsWith("[")) {
      flush();
      current = line === "[[subtask]]" ? {} : null;
      continue;
    }
    if (current === null) continue;
    const m = /^([A-Za-z0-9_]+)\s*=\s*(.+)$/.exec(line);
    if (!m) continue;
    if (m[1] === "id") {
      const q = /^["']([^"']*)["']$/.exec(m[2].trim());
      if (q) current.id = q[1];
    } else if (m[1] === "weight") {
      const w = Number(m[2].trim().replace(/_/g, ""));
      if (Number.isFinite(w) && w > 0) current.weight = w;
    }
  }
  flush();
  return weights;
}

function describe(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "nothing";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------- running programs

function execIn(signal) {
  return (cmd, args = [], opts = {}) =>
    new Promise((resolve) => {
      let timedOut = false;
      let killed = false;
      // Its own process group, so a timeout kills everything it started (a shell's children too),
      // not just the direct child, and no grandchild keeps the pipes open.
      const child = spawn(cmd, args, {
        cwd: opts.cwd,
        env: opts.env ? { ...process.env, ...opts.env } : process.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      const kill = () => {
        if (killed || child.pid === undefined) return;
        killed = true;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      };
      const onAbort = () => {
        timedOut = true;
        kill();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const timer = opts.timeoutMs === undefined ? undefined : setTimeout(onAbort, opts.timeoutMs);
      const out = [];
      const err = [];
      child.stdout.on("data", (d) => out.push(d));
      child.stderr.on("data", (d) => err.push(d));
      child.stdin.on("error", () => {});
      child.stdin.end(opts.input ?? "");
      let settled = false;
      const done = (code, sig, spawnError) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const stderr = Buffer.concat(err).toString("utf8");
        resolve({
          code,
          signal: sig,
          stdout: Buffer.concat(out).toString("utf8"),
          stderr: spawnError ? `${stderr}${spawnError.message}` : stderr,
          timedOut,
        });
      };
      child.on("error", (e) => done(null, null, e));
      child.on("close", (code, sig) => done(code, sig, null));
      if (signal.aborted) onAbort();
    });
}

/** The sealed runner (see docs/grader-kit.md, "Sealed runs"). */
export const SEALED_RUN = process.env.LONGHAUL_SEALED_RUN ?? "/longhaul/kit/sealed-run";
/** Exit status of a grader whose sealed runner is broken: no reward, a grading error. */
export const SEALED_FAILED = 86;

/** argv that runs `cmd args` through the sealed runner; absolute paths in args are classified. */
export function sealedArgv(cmd, args = [], opts = {}) {
  const pre = [SEALED_RUN, "--auto"];
  if (opts.cwd !== undefined) pre.push("--cwd", opts.cwd);
  if (opts.timeoutMs !== undefined) pre.push("--timeout", String(Math.max(opts.timeoutMs, 1) / 1000));
  for (const p of opts.readOnly ?? []) pre.push("--ro", p);
  for (const p of opts.outputs ?? []) pre.push("--out", p);
  return [...pre, "--", cmd, ...args];
}

function runSealedIn(signal) {
  const exec = execIn(signal);
  return async (cmd, args = [], opts = {}) => {
    const [runner, ...rest] = sealedArgv(cmd, args, opts);
    // The runner enforces the limit itself; the kit's own timer is a backstop a little later.
    const backstop = opts.timeoutMs === undefined ? undefined : opts.timeoutMs + 5000;
    const r = await exec(runner, rest, { input: opts.input, timeoutMs: backstop });
    // 125 from the runner, or the runner not starting at all (code and signal both null).
    const broken =
      (r.code === 125 && r.stderr.includes("sealed-run:")) || (r.code === null && r.signal === null);
    if (broken) {
      // Never score a program that could not be isolated: stop with no reward at all.
      process.stderr.write(r.stderr);
      process.exit(SEALED_FAILED);
    }
    if (r.code === 124) return { ...r, code: null, signal: "SIGKILL", timedOut: true };
    return r;
  };
}

// ---------------------------------------------------------------- the grader

function toScore(kind, value) {
  if (kind === "binary") {
    if (typeof value === "boolean") return { score: value ? 1 : 0, message: null };
    if (value && typeof value === "object" && typeof value.pass === "boolean") {
      return { score: value.pass ? 1 : 0, message: textOrNull(value.message) };
    }
    throw new TypeError(`binary check must return a boolean or { pass }, got ${describe(value)}`);
  }
  if (kind === "continuous") {
    if (!value || typeof value !== "object") {
      throw new TypeError(
        `continuous check must return { error, tolerance, cutoff }, got ${describe(value)}`,
      );
    }
    if ("score" in value && !("error" in value)) {
      if (typeof value.score !== "number" || !(value.score >= 0 && value.score <= 1)) {
        throw new TypeError(`score must be a number in [0, 1], got ${describe(value.score)}`);
      }
      return { score: value.score, message: textOrNull(value.message) };
    }
    const { error, tolerance, cutoff, decay, rate, message } = value;
    const score = scoreContinuous({ error, tolerance, cutoff, decay, rate });
    return {
      score,
      message: textOrNull(message),
      detail: { error, tolerance, cutoff, decay: decay ?? "linear" },
    };
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`episode check must return an array of { score }, got ${describe(value)}`);
  }
  if (value.length === 0) throw new TypeError("episode check returned no episodes");
  value.forEach((ep, i) => {
    const s = ep?.score;
    if (typeof s !== "number" || !(s >= 0 && s <= 1)) {
      throw new TypeError(`episode ${i}: score must be a number in [0, 1], got ${describe(s)}`);
    }
  });
  const score = mean(value.map((ep) => ep.score));
  const full = value.filter((ep) => ep.score === 1).length;
  return { score, message: `${full}/${value.length} episodes fully passed`, episodes: value };
}

function textOrNull(m) {
  return m === undefined || m === null ? null : String(m);
}

export function createGrader(options = {}) {
  const outDir = options.outDir ?? process.env.LONGHAUL_VERIFIER_DIR ?? "/logs/verifier";
  const seed = Number(options.seed ?? process.env.LONGHAUL_SEED ?? 0);
  const defaultTimeout = options.timeoutMs ?? 30000;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const exitOnTimeout = options.exitOnTimeout ?? true;
  const rubricPath = options.rubric === undefined ? "/tests/rubric.toml" : options.rubric;
  const checks = [];
  const grader = {};
  // Digest of every hidden stress input generated, in order: lets `task check` confirm that
  // different seeds really give different cases.
  const stressHash = createHash("sha256");
  let stressRecorded = false;
  const recordStress = (name, data) => {
    stressHash.update(`${String(name)}\0`);
    stressHash.update(typeof data === "string" || data instanceof Uint8Array ? data : JSON.stringify(data));
    stressHash.update("\0");
    stressRecorded = true;
  };

  const register =
    (kind) =>
    (id, fn, opts = {}) => {
      if (typeof id !== "string" || !ID_PATTERN.test(id)) {
        throw new TypeError(`subtask id must match [a-z0-9_]+, got ${describe(id)}`);
      }
      if (id === "reward") throw new TypeError('"reward" is reserved for the total');
      if (checks.some((c) => c.id === id)) throw new TypeError(`subtask "${id}" is registered twice`);
      if (typeof fn !== "function") throw new TypeError(`check "${id}" must be a function`);
      checks.push({ id, kind, fn, timeoutMs: opts.timeoutMs ?? defaultTimeout, weight: opts.weight ?? 1 });
      return grader;
    };

  grader.seed = seed;
  grader.recordStress = recordStress;
  grader.binary = register("binary");
  grader.continuous = register("continuous");
  grader.episode = register("episode");
  grader.run = async () => {
    const results = {};
    let anyTimedOut = false;
    // Set only when the question is whether R is below 1 (RES verification's bare-oracle trial,
    // docs/scale.md): after the first weighted subtask below 1 the rest are not run and score 0.
    const stopAtFirstFailure =
      options.stopAtFirstFailure ?? process.env.LONGHAUL_STOP_AT_FIRST_FAILURE === "1";
    const declared = stopAtFirstFailure ? readRubric(rubricPath) : null;
    let failed = false;
    for (const check of checks) {
      if (failed) {
        const message = "not run: an earlier subtask is below 1 (LONGHAUL_STOP_AT_FIRST_FAILURE)";
        results[check.id] = {
          kind: check.kind,
          score: 0,
          message,
          error: null,
          timed_out: false,
          duration_ms: 0,
        };
        continue;
      }
      const r = await runCheck(check, seed, log, recordStress);
      const weight = declared?.get(check.id) ?? check.weight;
      if (stopAtFirstFailure && r.score < 1 && weight > 0) failed = true;
      anyTimedOut ||= r.timed_out;
      results[check.id] = r;
      log(`[${check.id}] ${r.score.toFixed(3)}${r.error ? ` (${r.error})` : ""}`);
    }
    const rubric = readRubric(rubricPath);
    const weights = new Map(checks.map((c) => [c.id, c.weight]));
    if (rubric) {
      weights.clear();
      for (const [id, w] of rubric) {
        weights.set(id, w);
        if (!results[id]) {
          const error = "no check registered for this subtask";
          results[id] = { kind: null, score: 0, message: error, error, timed_out: false, duration_ms: 0 };
        }
      }
      for (const id of Object.keys(results)) {
        if (!rubric.has(id)) results[id].undeclared = true;
      }
    }
    const counted = Object.entries(results).filter(([id]) => weights.has(id));
    const total =
      counted.length === 0
        ? 0
        : clamp01(weightedMean(counted.map(([id, r]) => ({ value: r.score, weight: weights.get(id) }))));
    const rewardJson = {};
    for (const [id, r] of Object.entries(results)) rewardJson[id] = r.score;
    rewardJson.reward = total;
    const details = { schema_version: 1, seed, reward: total, subtasks: results };
    if (stressRecorded) details.stress_digest = stressHash.copy().digest("hex");
    await mkdir(outDir, { recursive: true });
    await writeAtomic(join(outDir, "reward-details.json"), `${JSON.stringify(details, null, 2)}\n`);
    // reward.json last: its presence means the details beside it are complete.
    await writeAtomic(join(outDir, "reward.json"), `${JSON.stringify(rewardJson)}\n`);
    log(`reward ${total.toFixed(4)}`);
    const summary = {
      reward: total,
      subtasks: Object.fromEntries(
        Object.entries(results).map(([id, r]) => [
          id,
          { score: r.score, message: r.message, error: r.error },
        ]),
      ),
    };
    if (anyTimedOut && exitOnTimeout) {
      // A timed-out check's work cannot be cancelled and may keep node alive forever. Leave the
      // caller a short grace period after run(), then exit; unref'd so a clean exit is not delayed.
      setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_GRACE_MS).unref();
    }
    return summary;
  };
  return grader;
}

async function runCheck(check, seed, log, recordStress) {
  const ctl = new AbortController();
  const ctx = {
    id: check.id,
    seed,
    rng: createRng(`${seed >>> 0}:${check.id}`),
    signal: ctl.signal,
    exec: execIn(ctl.signal),
    run: runSealedIn(ctl.signal),
    log: (line) => log(`[${check.id}] ${line}`),
    recordStress: (name, data) => recordStress(`${check.id}/${name}`, data),
  };
  const started = performance.now();
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), check.timeoutMs);
  });
  const base = { kind: check.kind, score: 0, message: null, error: null, timed_out: false };
  try {
    const outcome = await Promise.race([
      Promise.resolve()
        .then(() => check.fn(ctx))
        .then((value) => ({ value })),
      timeout,
    ]);
    if (outcome.timedOut) {
      ctl.abort();
      const error = `timed out after ${check.timeoutMs} ms`;
      return { ...base, message: error, error, timed_out: true, duration_ms: elapsed(started) };
    }
    const scored = toScore(check.kind, outcome.value);
    return { ...base, ...scored, duration_ms: elapsed(started) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ...base, message: `error: ${message}`, error: message, duration_ms: elapsed(started) };
  } finally {
    clearTimeout(timer);
    ctl.abort();
  }
}

function elapsed(started) {
  return Math.round(performance.now() - started);
}

function readRubric(path) {
  if (path === false || path === null || !existsSync(path)) return null;
  try {
    const weights = parseRubricWeights(readFileSync(path, "utf8"));
    return weights.size > 0 ? weights : null;
  } catch {
    return null;
  }
}

async function writeAtomic(path, text) {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}
