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
host_tools = ["python3"]
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
# Verifier entry: tests/grade.py on the verifier kit tests/lh.py (refresh it with
# \`longhaul task kit-update\`). Python runs isolated (-I): nothing in the agent's home or
# workdir is imported.
mkdir -p "\${LONGHAUL_VERIFIER_DIR:-/logs/verifier}"
python3 -I /tests/grade.py
rc=$?
# 86: the sealed runner could not isolate the agent's program; 87: the grader's own hidden-case
# generator failed. Either is a grading error: no reward file.
if [ "$rc" = 86 ] || [ "$rc" = 87 ]; then
  exit "$rc"
fi
# A crash of the grader still leaves a score of 0 for every subtask.
[ "$rc" = 0 ] || python3 -I -c 'import sys; sys.path.insert(0, "/tests"); import lh; lh.Grader().finish()'
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

export const GRADE_PY = `"""Verifier: hidden stress cases are generated here, from LONGHAUL_SEED, at verification time."""
import gzip
import os
import sys

sys.path.insert(0, "/tests")
from lh import Grader, generate, random_layers, relative_error, rng_for, run, score_continuous, wrap

COLS = ["id", "amount", "memo"]
CASES = "/tmp/cases"
os.makedirs(CASES, exist_ok=True)
g = Grader()
written = [0]


def make_rows(rng):
    return [{"id": str(i + 1), "amount": "%.2f" % (rng.int(-50000, 90000) / 100), "memo": "m%d" % rng.int(0, 999)}
            for i in range(rng.int(5, 40))]


def expected(rows):
    return sum(float(r["amount"]) for r in rows)


def to_csv(rows, cols, crlf=False, bom=False):
    nl = "\\r\\n" if crlf else "\\n"
    text = nl.join([",".join(cols)] + [",".join(r[c] for c in cols) for r in rows]) + nl
    return ("\\ufeff" if bom else "") + text


def total(name, content):
    """Runs the agent's total.py (sealed) on one generated file; None when it fails."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    g.digest(data)  # feeds the stress digest: task check confirms seeds give different cases
    written[0] += 1
    path = "%s/%d-%s" % (CASES, written[0], name)
    with open(path, "wb") as f:
        f.write(data)
    code, out, _ = run(["python3", "/app/total.py", path])
    try:
        return float(out.strip()) if code == 0 else None
    except ValueError:
        return None


def close(got, want):
    return got is not None and abs(got - want) < 0.005


def public_example():
    code, out, _ = run(["python3", "/app/total.py", "/app/data/example.csv"])
    return (1.0 if code == 0 and out.strip() == "61.25" else 0.0), "printed %r" % out.strip()


def plain_cases():
    rng, worst = rng_for("plain_cases"), 0.0
    for _ in range(3):
        rows = generate(make_rows, rng)
        got = total("plain.csv", to_csv(rows, COLS))
        worst = max(worst, 1.0 if got is None else relative_error(got, expected(rows)))
    return score_continuous(worst, 1e-6, 0.1), "worst relative error %g" % worst


def reordered_columns():
    rng = rng_for("reordered_columns")
    rows = generate(make_rows, rng)
    cols = rng.shuffle(COLS)
    if cols[1] == "amount":
        cols.reverse()
    got = total("reordered.csv", to_csv(rows, cols))
    return (1.0 if close(got, expected(rows)) else 0.0), "columns %s: got %s" % (",".join(cols), got)


def wrapped_files():
    rng = rng_for("wrapped_files")
    rows = generate(make_rows, rng)
    layers = random_layers(rng, 2, 4)
    got = total("wrapped.csv", wrap(to_csv(rows, ["amount", "id", "memo"], crlf=True, bom=True), layers))
    return (1.0 if close(got, expected(rows)) else 0.0), "layers %s: got %s" % ("+".join(layers), got)


def mixed_episodes():
    rng, scores = rng_for("mixed_episodes"), []
    for i in range(6):
        rows = generate(make_rows, rng)
        cols = COLS if rng.next() < 0.5 else rng.shuffle(COLS)
        content = to_csv(rows, cols, crlf=rng.next() < 0.5, bom=rng.next() < 0.5)
        if rng.next() < 0.5:
            content = gzip.compress(content.encode("utf-8"), mtime=0)
        scores.append(1.0 if close(total("episode-%d.csv" % i, content), expected(rows)) else 0.0)
    return sum(scores) / len(scores), "%d/%d episodes" % (sum(scores), len(scores))


g.check("public_example", public_example)
g.check("plain_cases", plain_cases)
g.check("reordered_columns", reordered_columns)
g.check("wrapped_files", wrapped_files)
g.check("mixed_episodes", mixed_episodes)
g.finish()
`;
