/**
 * The files of a new task. The example is small but complete: a public check worth little, hidden
 * stress cases generated from the seed (reordered columns, CRLF + BOM, gzip), a continuous and an
 * episode subtask, an oracle and an honest partial solution. Authors replace the domain, keep the
 * shape.
 */
export function taskToml(name: string, category: string): string {
  return `version = "1.0"

[task]
name = "${name}"

[metadata]
category = "${category}"
difficulty = "medium"
expert_time_estimate_min = 30
tags = ["csv", "robust-parsing"]

[agent]
timeout_sec = 1800

[verifier]
timeout_sec = 120

[environment]
cpus = 1
memory_mb = 1024
storage_mb = 1024
allow_internet = false
workdir = "/app"

[requires]
host_tools = ["python3", "node"]
`;
}

export const INSTRUCTION = `# Ledger totals

Write a command-line program \`/app/total.py\` (run as \`python3 /app/total.py FILE\`) that prints
the sum of the \`amount\` column of the CSV file FILE, rounded to 2 decimals (e.g. \`1234.50\`).

The files come from many systems, so the program must cope with:
- columns in any order (find \`amount\` by its header name, case-insensitively);
- Windows line endings and a UTF-8 byte-order mark;
- gzip-compressed and base64-encoded files, wrapped any number of times in any order (detect
  each layer by its content, not the file name; base64 may be split into 76-character lines);
- blank lines, which are ignored.

An example is in \`/app/data/example.csv\`; its total is \`61.25\`.
`;

export const EXAMPLE_CSV = "id,amount,memo\n1,10.50,coffee\n2,40.00,books\n3,10.75,lunch\n";

export const SOLVE_SH = `#!/bin/bash
set -euo pipefail
cat > /app/total.py <<'PY'
import base64, csv, gzip, io, re, sys
raw = open(sys.argv[1], "rb").read()
while True:
    if raw[:2] == b"\\x1f\\x8b":
        raw = gzip.decompress(raw)
    elif raw.strip() and re.fullmatch(rb"[A-Za-z0-9+/=\\s]+", raw):
        raw = base64.b64decode(b"".join(raw.split()))
    else:
        break
text = raw.decode("utf-8-sig").replace("\\r\\n", "\\n")
rows = [r for r in csv.reader(io.StringIO(text)) if r]
col = [h.strip().lower() for h in rows[0]].index("amount")
print(f"{sum(float(r[col]) for r in rows[1:]):.2f}")
PY
`;

export const PARTIAL_SH = `#!/bin/bash
# Handles the plain layout only: amount as the second column, no BOM, no gzip.
set -euo pipefail
cat > /app/total.py <<'PY'
import sys
lines = [l for l in open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines() if l.strip()]
print(f"{sum(float(l.split(',')[1]) for l in lines[1:]):.2f}")
PY
`;

export const TEST_SH = `#!/bin/bash
exec node /tests/grade.mjs
`;

export const RUBRIC = `[[subtask]]
id = "public_example"
weight = 1
kind = "binary"
visibility = "public"
description = "total.py prints 61.25 for the public example"

[[subtask]]
id = "plain_cases"
weight = 2
kind = "continuous"
visibility = "hidden"
description = "relative error of the totals on seeded plain files"

[[subtask]]
id = "reordered_columns"
weight = 2
kind = "binary"
visibility = "hidden"
description = "columns in a seeded order"

[[subtask]]
id = "wrapped_files"
weight = 2
kind = "binary"
visibility = "hidden"
description = "CRLF line endings, a BOM, and gzip/base64 wrappers nested in a seeded order"

[[subtask]]
id = "mixed_episodes"
weight = 2
kind = "episode"
visibility = "hidden"
description = "six seeded files, each with a random mix of the perturbations"
`;

export const GRADE_MJS = `// Verifier: hidden stress cases are generated here, from LONGHAUL_SEED, at verification time.
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createGrader, relativeError } from "/longhaul/kit/grader-kit.mjs";

// longhaul's seeded stress library (gzip/base64 wrappers, renamed fields, encodings, …).
const { randomLayers, wrap } = await import(process.env.LONGHAUL_STRESS ?? "/longhaul/dist/stress/index.js");

const g = createGrader();
mkdirSync("/tmp/cases", { recursive: true });
let n = 0;

function makeRows(rng) {
  const rows = [];
  for (let i = 0; i < rng.int(5, 40); i++) rows.push({ id: String(i + 1), amount: (rng.int(-50000, 90000) / 100).toFixed(2), memo: \`m\${rng.int(0, 999)}\` });
  return rows;
}
const expected = (rows) => rows.reduce((s, r) => s + Number(r.amount), 0);
function toCsv(rows, cols, { crlf = false, bom = false } = {}) {
  const nl = crlf ? "\\r\\n" : "\\n";
  const text = [cols.join(","), ...rows.map((r) => cols.map((c) => r[c]).join(","))].join(nl) + nl;
  return (bom ? "\\ufeff" : "") + text;
}
async function total(ctx, name, content) {
  ctx.recordStress(name, content);
  const path = \`/tmp/cases/\${n++}-\${name}\`;
  writeFileSync(path, content);
  const r = await ctx.run("python3", ["/app/total.py", path], { timeoutMs: 10000 });
  return r.code === 0 ? Number(r.stdout.trim()) : Number.NaN;
}
const close = (got, want) => Number.isFinite(got) && Math.abs(got - want) < 0.005;

g.binary("public_example", async (ctx) => {
  const r = await ctx.run("python3", ["/app/total.py", "/app/data/example.csv"]);
  return { pass: r.code === 0 && r.stdout.trim() === "61.25", message: \`printed \${JSON.stringify(r.stdout.trim())}\` };
});

g.continuous("plain_cases", async (ctx) => {
  let worst = 0;
  for (let i = 0; i < 3; i++) {
    const rows = makeRows(ctx.rng);
    const got = await total(ctx, "plain.csv", toCsv(rows, ["id", "amount", "memo"]));
    worst = Math.max(worst, Number.isFinite(got) ? relativeError(got, expected(rows)) : 1);
  }
  return { error: worst, tolerance: 1e-6, cutoff: 0.1, decay: "linear", message: \`worst relative error \${worst}\` };
});

g.binary("reordered_columns", async (ctx) => {
  const rows = makeRows(ctx.rng);
  const cols = ctx.rng.shuffle(["id", "amount", "memo"]);
  if (cols[1] === "amount") cols.reverse();
  const got = await total(ctx, "reordered.csv", toCsv(rows, cols));
  return { pass: close(got, expected(rows)), message: \`columns \${cols.join(",")}: got \${got}\` };
});

g.binary("wrapped_files", async (ctx) => {
  const rows = makeRows(ctx.rng);
  const text = toCsv(rows, ["amount", "id", "memo"], { crlf: true, bom: true });
  const layers = randomLayers(ctx.rng, 2, 4);
  const got = await total(ctx, "wrapped.csv", wrap(new TextEncoder().encode(text), layers));
  return { pass: close(got, expected(rows)), message: \`layers \${layers.join("+")}: got \${got}\` };
});

g.episode("mixed_episodes", async (ctx) => {
  const records = [];
  for (let i = 0; i < 6; i++) {
    const rows = makeRows(ctx.rng);
    const cols = ctx.rng.next() < 0.5 ? ["id", "amount", "memo"] : ctx.rng.shuffle(["id", "amount", "memo"]);
    const opts = { crlf: ctx.rng.next() < 0.5, bom: ctx.rng.next() < 0.5 };
    let content = toCsv(rows, cols, opts);
    const gz = ctx.rng.next() < 0.5;
    if (gz) content = gzipSync(Buffer.from(content, "utf8"));
    const got = await total(ctx, \`episode-\${i}.csv\`, content);
    records.push({ score: close(got, expected(rows)) ? 1 : 0, cols: cols.join(","), ...opts, gzip: gz });
  }
  return records;
});

await g.run();
`;
