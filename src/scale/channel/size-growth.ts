import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

const MEASURE = `
import json, os, sys
sys.path.insert(0, sys.argv[1])
import res_channel as r
src, scratch = sys.argv[2], sys.argv[3]
def size(p):
    if os.path.isfile(p):
        return os.path.getsize(p)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, names in os.walk(p) for f in names)
raw = size(src)
# Each prefix is presented once: the channels asked for share their parent's steps.
done = {"[]": src}
def at(steps):
    key = json.dumps(steps, sort_keys=True)
    if key not in done:
        done[key] = r.present(at(steps[:-1]), steps[-1:], scratch)
    return done[key]
print(json.dumps([size(at(steps)) / raw for steps in json.load(sys.stdin)]))
`;

/**
 * How many times larger each channel (a list of steps) makes the sample input of this kind (a
 * folder of two files, or one file), presenting it through the channel kit in one Python process;
 * null when that cannot run (then no budget is applied). Results are cached by channel.
 */
export class SizeGrowth {
  private readonly cache = new Map<string, number>();
  private failed = false;

  constructor(private readonly kind: InputKind) {}

  measure(channels: readonly (readonly ChannelStep[])[]): number[] | null {
    const key = (c: readonly ChannelStep[]): string => JSON.stringify(c);
    const todo = new Map<string, readonly ChannelStep[]>();
    for (const c of channels) if (!this.cache.has(key(c))) todo.set(key(c), c);
    if (todo.size > 0 && !this.failed) {
      const got = this.run([...todo.values()]);
      if (got === null) this.failed = true;
      else [...todo.keys()].forEach((k, i) => void this.cache.set(k, got[i] ?? Number.POSITIVE_INFINITY));
    }
    if (this.failed) return null;
    return channels.map((c) => this.cache.get(key(c)) ?? Number.POSITIVE_INFINITY);
  }

  private run(channels: readonly (readonly ChannelStep[])[]): number[] | null {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-res-size-"));
    try {
      // A folder input gets every sample file; a file (or path) input the first alone.
      const files = [...sampleFiles()];
      const src = join(dir, this.kind === "folder" ? "input" : (files[0]?.[0] ?? "input.csv"));
      for (const [rel, text] of this.kind === "folder" ? files : files.slice(0, 1)) {
        const p = this.kind === "folder" ? join(src, rel) : src;
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, text);
      }
      const scratch = join(dir, "scratch");
      mkdirSync(scratch);
      const r = spawnSync(python(), ["-B", "-c", MEASURE, dirname(channelKitPath()), src, scratch], {
        input: JSON.stringify(channels),
        encoding: "utf8",
        timeout: 60_000,
      });
      if (r.status !== 0) return null;
      const parsed: unknown = JSON.parse(r.stdout);
      if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === "number")) return null;
      return parsed;
    } catch {
      return null;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
export function withinSizeBudget(
  parent: readonly ChannelStep[],
  level: readonly ChannelStep[],
  pool: readonly ChannelStepName[],
  avoid: ReadonlySet<ChannelStepName>,
  rng: Rng,
  sizes: SizeGrowth,
): ChannelStep[] {
  // Every prefix's bound is at most the whole's (no step's bound is below 1).
  if (bound([...parent, ...level]) <= SIZE_GROWTH_BUDGET) return [...level];
  const prefixes = level.map((_, i) => [...parent, ...level.slice(0, i + 1)]);
  const first = sizes.measure(prefixes);
  if (first === null || first.every((g) => g <= SIZE_GROWTH_BUDGET)) return [...level];
  const fresh = pool.filter((n) => !avoid.has(n));
  const order = [...rng.shuffle(fresh.length > 0 ? fresh : pool)];
  const out: ChannelStep[] = [];
  for (const step of level) {
    const seed = rng.nextU32();
    const [here] = sizes.measure([[...parent, ...out, step]]) ?? [0];
    if ((here ?? 0) <= SIZE_GROWTH_BUDGET) {
      out.push(step);
      continue;
    }
    const options = order.map((n) => channelStep(n, seed));
    const grown = sizes.measure(options.map((o) => [...parent, ...out, o])) ?? [];
    const fits = grown.findIndex((g) => g <= SIZE_GROWTH_BUDGET);
    const least = grown.reduce((best, g, i) => (g < (grown[best] ?? Number.POSITIVE_INFINITY) ? i : best), 0);
    out.push(options[fits >= 0 ? fits : least] ?? step);
  }
  return out;
}
