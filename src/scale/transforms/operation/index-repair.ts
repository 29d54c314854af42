import { createHash } from "node:crypto";
import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { dirName, inDir, stemName } from "../shared/names.js";
import { pathArg } from "../shared/shell.js";
import { checkTargets } from "../shared/store.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ records: z.number().int().min(2).max(16) }).strict();
export type IndexRepairParams = z.infer<typeof Params>;

const DATA_MAGIC = "RECS1\n";
const REC = "REC";

const REPAIR_PY = String.raw`#!/usr/bin/env python3
"""Rebuilds a damaged record index from its data file: repair-index.py INDEX DATA
The damage it repairs: entries out of order and every offset shifted by one unknown constant.
Each record in DATA is b"REC" + 4-byte big-endian length + payload; index entries carry the
length and the first 16 hex digits of the payload's SHA-256, which identify the record."""
import hashlib, json, sys


def scan(data):
    if not data.startswith(b"RECS1\n"):
        sys.exit("not a record data file")
    pos, found = 6, []
    while pos < len(data):
        if data[pos : pos + 3] != b"REC":
            sys.exit("record data damaged at byte %d" % pos)
        n = int.from_bytes(data[pos + 3 : pos + 7], "big")
        payload = data[pos + 7 : pos + 7 + n]
        found.append((pos, n, hashlib.sha256(payload).hexdigest()[:16]))
        pos += 7 + n
    return found


def main(index_path, data_path):
    index = json.load(open(index_path, encoding="utf-8"))
    records = scan(open(data_path, "rb").read())
    used = set()
    for e in sorted(index["entries"], key=lambda e: e["seq"]):
        match = next((r for r in records if r[0] not in used and r[1] == e["length"] and r[2] == e["check"]), None)
        if match is None:
            sys.exit("no record in %s matches index entry seq %d" % (data_path, e["seq"]))
        used.add(match[0])
        e["offset"] = match[0]
    index["entries"] = sorted(index["entries"], key=lambda e: e["seq"])
    index["state"] = "repaired"
    with open(index_path, "w", encoding="utf-8") as f:
        json.dump(index, f, indent=2)
        f.write("\n")
    print("repaired %d entries of %s" % (len(index["entries"]), index_path))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: repair-index.py INDEX DATA")
    main(sys.argv[1], sys.argv[2])
`;

const EXTRACT_PY = `#!/usr/bin/env python3
"""Extracts a file from record data through its index: extract.py INDEX DATA OUT
Refuses unless every index entry points at a record with the entry's length and checksum."""
import hashlib, json, os, sys, tempfile


def main(index_path, data_path, out):
    index = json.load(open(index_path, encoding="utf-8"))
    data = open(data_path, "rb").read()
    chunks = []
    for e in sorted(index["entries"], key=lambda e: e["seq"]):
        o = e["offset"]
        n = int.from_bytes(data[o + 3 : o + 7], "big") if o >= 0 else -1
        payload = data[o + 7 : o + 7 + n] if n >= 0 else b""
        ok = data[o : o + 3] == b"REC" and n == e["length"] and hashlib.sha256(payload).hexdigest()[:16] == e["check"]
        if not ok:
            sys.exit("index entry seq %d does not point at its record: repair the index first (repair-index)" % e["seq"])
        chunks.append(payload)
    blob = b"".join(chunks)
    if len(blob) != index["total_size"]:
        sys.exit("extracted %d bytes, index says %d" % (len(blob), index["total_size"]))
    folder = os.path.dirname(out) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".restore-")
    with os.fdopen(fd, "wb") as f:
        f.write(blob)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: extract.py INDEX DATA OUT")
    main(*sys.argv[1:])
`;

const REPAIR_PATH = ".tools/repair-index.py";
const EXTRACT_PATH = ".tools/extract.py";

function check(payload: Uint8Array): string {
  return createHash("sha256").update(payload).digest("hex").slice(0, 16);
}

/** Cut points splitting `size` bytes into `n` non-empty pieces (fewer when the file is small). */
function cuts(size: number, n: number, rng: Rng): number[] {
  const k = Math.max(1, Math.min(n, size));
  const inner = new Set<number>();
  while (inner.size < k - 1) inner.add(rng.int(1, size - 1));
  return [0, ...[...inner].sort((a, b) => a - b), size];
}

/**
 * Stores the target as length-prefixed records in shuffled order plus a JSON index whose entries
 * are deliberately damaged (shuffled, every offset shifted by a hidden constant). A placed
 * `repair-index` rebuilds the index from record checksums; `extract` then joins the records.
 */
export const indexRepairTransform: Transform<IndexRepairParams> = {
  name: "index-repair",
  kind: "operation",
  basic: false,
  summary: "store a file as shuffled records behind a damaged index that a placed tool must repair",
  restoreDoc:
    "Run the placed `repair-index.py INDEX DATA` (it re-finds each record by length and checksum and fixes " +
    "offsets and order), then `extract.py INDEX DATA OUT`.",
  params: Params,
  arity: "one",
  accepts: () => true,
  defaultParams: (seed) => ({ records: new Rng(seed).int(4, 8) }),
  apply({ env, targets, params, seed }) {
    checkTargets("index-repair", env, targets);
    const rng = new Rng(`index-repair/${seed}`);
    const b = new TreeBuilder(env);
    const steps = targets.map((t) => {
      const bytes = b.take(t);
      const c = cuts(bytes.length, params.records, rng);
      const pieces = c
        .slice(0, -1)
        .map((start, seq) => ({ seq, payload: bytes.subarray(start, c[seq + 1]) }));
      const blobs: Buffer[] = [Buffer.from(DATA_MAGIC, "ascii")];
      let offset = DATA_MAGIC.length;
      const entries: { seq: number; offset: number; length: number; check: string }[] = [];
      for (const p of rng.shuffle(pieces)) {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(p.payload.length);
        blobs.push(Buffer.from(REC, "ascii"), len, Buffer.from(p.payload));
        entries.push({ seq: p.seq, offset, length: p.payload.length, check: check(p.payload) });
        offset += 7 + p.payload.length;
      }
      // The damage: a constant shift on every offset, and entries in an order unrelated to seq or offset.
      const shift = rng.int(3, 97) * (rng.int(0, 1) === 0 ? 1 : -1);
      const damaged = rng.shuffle(entries).map((e) => ({ ...e, offset: e.offset + shift }));
      const index = {
        format: "recidx/1",
        name: t,
        state: "damaged",
        total_size: bytes.length,
        entries: damaged,
      };
      const base = inDir(dirName(t), stemName(t));
      const data = b.firstFree(rng, [`${base}.dat`, `${t}.dat`]);
      b.put(data, new Uint8Array(Buffer.concat(blobs)));
      const idx = b.firstFree(rng, [`${base}.idx`, `${t}.idx`]);
      b.put(idx, utf8.encode(`${JSON.stringify(index, null, 2)}\n`));
      return { t, data, idx };
    });
    const repair = b.placeShared(REPAIR_PATH, utf8.encode(REPAIR_PY), rng);
    const extract = b.placeShared(EXTRACT_PATH, utf8.encode(EXTRACT_PY), rng);
    return {
      env: b.build(),
      access: steps
        .map(
          ({ t, data, idx }) =>
            `\`${t}\` is stored as records in \`${data}\` with the index \`${idx}\`, which is damaged (entries out ` +
            "of order, every offset shifted by an unknown constant). Repair it first with " +
            `\`python3 ${repair} ${idx} ${data}\`, then run \`python3 ${extract} ${idx} ${data} ${t}\`.`,
        )
        .join(" "),
      restore: steps.flatMap(({ t, data, idx }) => [
        {
          run: `python3 ${pathArg(repair)} ${pathArg(idx)} ${pathArg(data)}`,
          why: `repair the index ${idx}`,
        },
        {
          run: `python3 ${pathArg(extract)} ${pathArg(idx)} ${pathArg(data)} ${pathArg(t)}`,
          why: `extract ${t} from ${data}`,
        },
      ]),
      produced: [...steps.flatMap(({ data, idx }) => [data, idx]), repair, extract],
      removed: [...targets],
    };
  },
};
