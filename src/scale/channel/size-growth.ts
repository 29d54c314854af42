import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Rng } from "../../core/rng.js";
import {
  type ChannelStep,
  type ChannelStepName,
  channelKitPath,
  channelStep,
  type InputKind,
} from "./steps.js";

/**
 * The most a file or folder channel may enlarge its input, measured on the sample (sampleFiles). The grader presents
 * one input a call and the candidate's program restores it, both in proportion to its size: a
 * meter-billing depth-10 channel made a 76 KB example 907 KB (0.28 s to present a call, 0.05 s at
 * depth 5), and its children took 18 s to verify against 6 s at depth 1.
 */
export const SIZE_GROWTH_BUDGET = 4;

/**
 * A fixed, seeded sample input: CSV and JSON text as program tasks read, about 12 KB. A file's size
 * after gzip depends on what earlier layers left of its redundancy, so growth is measured by
 * presenting this sample through the kit itself, not computed from the steps. It is an estimate:
 * real inputs compress more or less than the sample.
 */
function sampleFiles(): Map<string, string> {
  const rng = new Rng("res:channel-size-sample");
  const words = ["north", "south", "meter", "batch", "audit", "spare", "lot", "fleet", "depot", "zone"];
  const rows = ["id,date,site,reading,rate,note"];
  for (let i = 0; i < 160; i++) {
    const day = String(1 + rng.int(0, 27)).padStart(2, "0");
    rows.push(
      `${1000 + i},2024-03-${day},${rng.pick(words)}-${rng.int(1, 40)},${(rng.next() * 5000).toFixed(3)},${rng.int(5, 40) / 100},${rng.pick(words)} ${rng.pick(words)}`,
    );
  }
  const records = Array.from({ length: 40 }, (_, i) => ({
    id: `r${i}`,
    value: Number((rng.next() * 100).toFixed(4)),
    tags: [rng.pick(words), rng.pick(words)],
  }));
  return new Map([
    ["readings.csv", `${rows.join("\n")}\n`],
    ["meta/records.json", `${JSON.stringify(records, null, 1)}\n`],
  ]);
}

/** The system Python, which trials use too (a version manager's `python3` shim costs ~150 ms a start). */
function python(): string {
  return existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

// One request per line on stdin (a JSON list of channels), one answer per line on stdout (their
// growth). Presented prefixes are kept for the session: a channel one step longer than one
// measured before costs one step, not its whole length again. At the end of stdin (the planner
// is done with the level, or the process that started this one is gone) the scratch folder goes.
const MEASURE = `
import json, os, shutil, sys
sys.path.insert(0, sys.argv[1])
import res_channel as r
src, scratch, root = sys.argv[2], sys.argv[3], sys.argv[4]
def size(p):
    if os.path.isfile(p):
        return os.path.getsize(p)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(p) for f in names)
raw = size(src)
done = {"[]": src}
def at(steps):
    key = json.dumps(steps, sort_keys=True)
    if key not in done:
        done[key] = r.present(at(steps[:-1]), steps[-1:], scratch)
    return done[key]
try:
    for line in sys.stdin:
        print(json.dumps([size(at(steps)) / raw for steps in json.loads(line)]), flush=True)
finally:
    shutil.rmtree(root, ignore_errors=True)
`;

/** How long a measuring process waits for the next level's requests before it ends itself. */
const IDLE_MS = 60_000;

/** How long one request may take before the measurement is given up (no budget then). */
const MEASURE_TIMEOUT_MS = 60_000;

/** A measuring process and the requests waiting for its answers, in order. */
interface Session {
  readonly pid: number | undefined;
  send(channels: readonly (readonly ChannelStep[])[]): Promise<number[] | null>;
  close(): void;
  /** Whether it ended itself after IDLE_MS without a request (not a failure: another may start). */
  retired(): boolean;
}

/**
 * How many times larger each channel (a list of steps) makes the sample input of this kind (a
 * folder of two files, or one file), presenting it through the channel kit in a Python process
 * that stays up until close(); null when that cannot run (then no budget is applied). Results
 * are cached by channel for the life of this object.
 */
export class SizeGrowth {
  private readonly cache = new Map<string, number>();
  private failed = false;
  private session: Session | null = null;

  constructor(private readonly kind: InputKind) {}

  async measure(channels: readonly (readonly ChannelStep[])[]): Promise<number[] | null> {
    const key = (c: readonly ChannelStep[]): string => JSON.stringify(c);
    const todo = new Map<string, readonly ChannelStep[]>();
    for (const c of channels) if (!this.cache.has(key(c))) todo.set(key(c), c);
    if (todo.size > 0 && !this.failed) {
      if (this.session?.retired() === true) this.session = null;
      this.session ??= startSession(this.kind);
      const got = await this.session.send([...todo.values()]);
      if (got === null || got.length !== todo.size) {
        this.failed = true;
        this.close();
      } else [...todo.keys()].forEach((k, i) => void this.cache.set(k, got[i] ?? Number.POSITIVE_INFINITY));
    }
    if (this.failed) return null;
    return channels.map((c) => this.cache.get(key(c)) ?? Number.POSITIVE_INFINITY);
  }

  /** The measuring process's pid while one is up (tests and diagnostics). */
  processId(): number | null {
    return this.session?.retired() === false ? (this.session.pid ?? null) : null;
  }

  /** Ends the measuring process, kept between levels until now (the cache stays; a later measure starts another). */
  close(): void {
    this.session?.close();
    this.session = null;
  }
}

function startSession(kind: InputKind): Session {
  const dir = mkdtempSync(join(tmpdir(), "longhaul-res-size-"));
  // A folder input gets every sample file; a file (or path) input the first alone.
  const files = [...sampleFiles()];
  const src = join(dir, kind === "folder" ? "input" : (files[0]?.[0] ?? "input.csv"));
  for (const [rel, text] of kind === "folder" ? files : files.slice(0, 1)) {
    const p = kind === "folder" ? join(src, rel) : src;
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  const scratch = join(dir, "scratch");
  mkdirSync(scratch);
  // Not spawnSync: other chains' verifications (`scale -n`) go on in this process meanwhile.
  const child = spawn(python(), ["-B", "-c", MEASURE, dirname(channelKitPath()), src, scratch, dir], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  const waiting: { done: (r: number[] | null) => void; timer: NodeJS.Timeout }[] = [];
  let ended = false;
  const end = (): void => {
    ended = true;
    for (const w of waiting.splice(0)) {
      clearTimeout(w.timer);
      w.done(null);
    }
    child.kill("SIGKILL");
  };
  let buffered = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const w = waiting.shift();
      if (w === undefined) continue;
      clearTimeout(w.timer);
      w.done(parseGrowth(line));
    }
  });
  child.on("error", end);
  child.on("close", () => {
    end();
    rmSync(dir, { recursive: true, force: true });
  });
  child.stdin.on("error", () => {});
  // Kept between a lineage's levels (the prefixes it presented serve the next level), yet never
  // what keeps this process alive: while no answer is awaited its handles are unref'd, and after
  // IDLE_MS without a request it ends itself (an owner that never calls close() costs nothing
  // after that; at this process's exit the script sees its stdin end and removes its folder).
  let idle: NodeJS.Timeout | undefined;
  let retired = false;
  const hold = (busy: boolean): void => {
    if (busy) child.ref();
    else child.unref();
    for (const h of [child.stdin, child.stdout]) {
      if (!(h instanceof Socket)) continue;
      if (busy) h.ref();
      else h.unref();
    }
    clearTimeout(idle);
    idle = busy
      ? undefined
      : setTimeout(() => {
          retired = true;
          child.stdin.end();
        }, IDLE_MS).unref();
  };
  hold(false);
  return {
    pid: child.pid,
    send(channels) {
      if (ended) return Promise.resolve(null);
      hold(true);
      return new Promise<number[] | null>((done) => {
        const timer = setTimeout(end, MEASURE_TIMEOUT_MS);
        waiting.push({ done, timer });
        child.stdin.write(`${JSON.stringify(channels)}\n`);
      }).finally(() => {
        if (waiting.length === 0 && !ended) hold(false);
      });
    },
    close() {
      clearTimeout(idle);
      child.stdin.end();
    },
    retired: () => retired,
  };
}

function parseGrowth(line: string): number[] | null {
  try {
    const parsed: unknown = JSON.parse(line);
    return Array.isArray(parsed) && parsed.every((x) => typeof x === "number") ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * At most how many times larger a step makes the sample (base64 4/3 and a newline every 76; hex 2;
 * UTF-16 2 and a BOM; gzip's header on data it cannot shrink; a tar archive's headers and record
 * padding). A channel whose product stays within the budget needs no measurement.
 */
const BOUND: Readonly<Record<string, number>> = {
  base64: 1.37,
  hex: 2.01,
  "text-reencode": 2.01,
  gzip: 1.01,
  manifest: 1.05,
  archive: 2,
};

function bound(steps: readonly ChannelStep[]): number {
  return steps.reduce((g, s) => {
    if (s.name === "layered-wrap")
      return g * (s.params.layers ?? []).reduce((h, l) => h * (BOUND[l] ?? 2.01), 1);
    return g * (BOUND[s.name] ?? 1);
  }, 1);
}

/**
 * `level` (drawn for one level, after the parent's steps) with every step that would take the
 * measured size past the budget replaced: by the first step of `pool` (in an order drawn from
 * `rng`, avoiding `avoid` while it can) that keeps within it, or, when none does, by the one that
 * grows least (a parent already past the budget then shrinks back, usually through gzip). `rng` is
 * drawn from only when a replacement is needed, so a level within the budget is exactly what was
 * drawn. Without Python to measure with, the level is kept.
 */
export function withinSizeBudget(...args: Parameters<typeof budgetLevel>): Promise<ChannelStep[]> {
  // The measurer (args[5]) keeps its process for the next level: the owner closes it.
  return budgetLevel(...args);
}

async function budgetLevel(
  parent: readonly ChannelStep[],
  level: readonly ChannelStep[],
  pool: readonly ChannelStepName[],
  avoid: ReadonlySet<ChannelStepName>,
  rng: Rng,
  sizes: SizeGrowth,
): Promise<ChannelStep[]> {
  // Every prefix's bound is at most the whole's (no step's bound is below 1).
  if (bound([...parent, ...level]) <= SIZE_GROWTH_BUDGET) return [...level];
  const prefixes = level.map((_, i) => [...parent, ...level.slice(0, i + 1)]);
  const first = await sizes.measure(prefixes);
  if (first === null || first.every((g) => g <= SIZE_GROWTH_BUDGET)) return [...level];
  const fresh = pool.filter((n) => !avoid.has(n));
  const order = [...rng.shuffle(fresh.length > 0 ? fresh : pool)];
  const out: ChannelStep[] = [];
  for (const step of level) {
    const seed = rng.nextU32();
    const [here] = (await sizes.measure([[...parent, ...out, step]])) ?? [0];
    if ((here ?? 0) <= SIZE_GROWTH_BUDGET) {
      out.push(step);
      continue;
    }
    const options = order.map((n) => channelStep(n, seed));
    const grown = (await sizes.measure(options.map((o) => [...parent, ...out, o]))) ?? [];
    const fits = grown.findIndex((g) => g <= SIZE_GROWTH_BUDGET);
    const least = grown.reduce((best, g, i) => (g < (grown[best] ?? Number.POSITIVE_INFINITY) ? i : best), 0);
    out.push(options[fits >= 0 ? fits : least] ?? step);
  }
  return out;
}
