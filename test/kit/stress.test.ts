import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { py } from "./py.js";

/** The kit's stress functions, run in python3: determinism by seed, round trips and invariants. */
describe("verifier kit: seeded randomness", () => {
  it("gives the host Rng's stream for number and string seeds, forks included", () => {
    const got = py<{ u32: number[]; ints: number[]; shuffled: number[]; fork: number[] }>(`
r = lh.Rng(42)
u32 = [r.next_u32() for _ in range(5)]
ints = [r.int(-3, 9) for _ in range(5)]
s = lh.Rng("abc\\u00e9:x").fork("label")
print(json.dumps({"u32": u32, "ints": ints, "shuffled": s.shuffle(range(10)),
                  "fork": [lh.Rng(7).fork("a").next_u32(), lh.Rng(-1).next_u32()]}))`);
    const r = new Rng(42);
    expect(got.u32).toEqual(Array.from({ length: 5 }, () => r.nextU32()));
    expect(got.ints).toEqual(Array.from({ length: 5 }, () => r.int(-3, 9)));
    const s = new Rng("abc\u00e9:x").fork("label");
    expect(got.shuffled).toEqual(s.shuffle(Array.from({ length: 10 }, (_, i) => i)));
    expect(got.fork).toEqual([new Rng(7).fork("a").nextU32(), new Rng(-1).nextU32()]);
  });
});

describe("verifier kit: stress perturbations", () => {
  it("give the same output for the same seed and different output for another", () => {
    const got = py<{ same: boolean[]; differ: boolean[] }>(`
rows = [{"id": i, "temp": 20.5 + i, "name": "n%d" % i, "at": 1700000000000 + i * 60000, "ok": i % 2 == 0}
        for i in range(40)]
gen = lh.records_generator(rows, count=6, units={"temp": "C"}, timestamps=["at"])
img = lh.Raster(9, 7, 4, bytes((i * 37) % 256 for i in range(9 * 7 * 4)))
def case(seed):
    c = lh.make_stress_case(seed, gen)
    p = lh.perturb_image(lh.Rng(seed), img)
    t = lh.build_manifest_tree(lh.Rng(seed), b"x" * 500, depth=3)
    f, m = lh.split_bytes(lh.Rng(seed), b"abc\\n" * 50, 4, align="line")
    return (c["inputs"], c["expected"]["applied"], p["png"], t["files"], f, m)
same = [case(s) == case(s) for s in range(8)]
differ = [case(s) != case(s + 1) for s in range(8)]
print(json.dumps({"same": same, "differ": differ}))`);
    expect(got.same).toEqual(Array(8).fill(true));
    expect(got.differ).toEqual(Array(8).fill(true));
  });

  it("compose into cases whose written records can be recovered from the files", () => {
    // Over 60 seeds every perturbation is picked many times; the case's files are peeled back
    // (manifest or parts, layers, encoding, junk lines) and parsed, giving the stated records.
    const got = py<{ ok: number; seen: string[]; failures: string[] }>(`
rows = [{"id": i, "temp": 20.5 + i / 4, "name": "n,%d \\"q\\"" % i, "at": 1700000000000 + i * 61000,
         "ok": i % 3 == 0, "note": None if i % 5 == 0 else "x"} for i in range(30)]
seen, failures, ok = set(), [], 0
for seed in range(60):
    c = lh.make_stress_case(seed, lh.records_generator(rows, count=6, units={"temp": "C"}, timestamps=["at"]))
    e, inputs = c["expected"], c["inputs"]
    seen.update(a["id"] for a in e["applied"])
    try:
        if e["entry"].endswith("parts/manifest.json"):
            m = json.loads(inputs[e["entry"]])
            base = e["entry"].rsplit("/", 1)[0] + "/"
            data = lh.join_parts({p[len(base):]: b for p, b in inputs.items() if p != e["entry"]}, m)
        elif e["entry"].endswith("/manifest.json"):
            data = lh.resolve_manifest(inputs, e["entry"])
        else:
            data = inputs[e["entry"]]
        peeled, layers = lh.unwrap_auto(data)
        for a in e["applied"]:
            if a["id"] == "wrap-layers":
                data = lh.unwrap(data, a["report"]["layers"])
        text, spec = lh.decode_text(data)
        for a in e["applied"]:
            if a["id"] == "junk-lines":
                text = lh.remove_junk_lines(text, a["report"]["inserted"])
        got = lh.parse_records(text, e["format"])
        want = e["records"]
        # CSV cannot tell an absent key from an empty field: both read back as None.
        norm = lambda rs: [{k: (None if v == "" and e["format"] in ("csv", "tsv") else v) for k, v in r.items()} for r in rs]
        if e["format"] in ("csv", "tsv"):
            cols = lh.columns_of(want)
            want = [{k: r.get(k) for k in cols} for r in want]
        assert norm(got) == norm(want), "records differ"
        ok += 1
    except Exception as ex:
        failures.append("seed %d %s: %s" % (seed, e["perturbations"], ex))
print(json.dumps({"ok": ok, "seen": sorted(seen), "failures": failures[:5]}))`);
    expect(got.failures).toEqual([]);
    expect(got.ok).toBe(60);
    expect(got.seen.length).toBe(13);
  });

  it("can each be undone or checked from their report", () => {
    const got = py<Record<string, boolean>>(`
R = lh.Rng
rows = [{"userId": i, "maxTemp": 20.5 + i, "name": "n%d" % i, "flag": i % 2 == 0} for i in range(25)]
out = {}
r, mapping = lh.rename_fields(R(1), rows)
out["rename"] = lh.restore_fields(r, mapping) == rows and len(set(mapping)) == len(mapping)
out["styles"] = len({lh.normalize_key(lh.style_key("maxTempC", s)) for s in lh.KEY_STYLES}) == 1
m, removed = lh.inject_missing(R(2), rows, 0.2)
out["missing"] = len(removed) == round(0.2 * 100) and lh.restore_missing(m, removed) == rows
j, changes = lh.jitter_numbers(R(3), rows, 1e-3, mode="relative", fields=["maxTemp"])
out["jitter"] = all(abs(c["to"] - c["from"]) <= 1e-3 * abs(c["from"]) for c in changes) and len(changes) == 25
d, dups = lh.duplicate_rows(R(4), rows, 5)
out["duplicates"] = lh.remove_duplicates(d, dups) == rows and all(d[x["index"]] == rows[x["of"]] for x in dups)
text = "h1,h2\\n1,2\\n3,4\\n"
t, ins = lh.inject_junk_lines(R(5), text, 4, keep_first=1)
out["junk"] = lh.remove_junk_lines(t, ins) == text and t.split("\\n")[0] == "h1,h2"
items, order = lh.shuffle_with_order(R(6), list("abcdefg"))
out["reorder"] = lh.unshuffle(items, order) == list("abcdefg") and sorted(order) == list(range(7))
out["keys"] = all(a == b for a, b in zip(lh.shuffle_keys(R(7), rows), rows))
out["units"] = all(abs(lh.convert_unit(lh.convert_unit(v, a, b), b, a) - v) <= 1e-9 * max(abs(v), 1)
                   for v in (-40.0, 0.0, 12.5, 1e6) for q in lh.QUANTITIES
                   for a in lh.units_of(q) for b in lh.units_of(q))
cu, ch = lh.change_units(rows, "maxTemp", "C", "F", "column")
out["change_units"] = cu[0]["maxTemp_unit"] == "F" and abs(cu[1]["maxTemp"] - (21.5 * 9 / 5 + 32)) < 1e-9
ms = 1772373909123
out["timestamps"] = all(lh.parse_instant(lh.format_instant(ms, f, z), fmt=f if f.startswith("epoch") else None,
                                         zone_offset_minutes=z) == lh.truncate_to_format(ms, f)
                        for f in lh.TIMESTAMP_FORMATS for z in (0, 330, -300, 840))
out["rfc2822"] = lh.format_instant(ms, "rfc2822", 330) == "Sun, 01 Mar 2026 19:35:09 +0530"
s = "héllo\\nwörld\\n\\U0001F600\\n"
out["text"] = all(lh.decode_text(lh.encode_text(s, c, b, n)) == (s, {"charset": c, "bom": b or c != "utf-8", "newline": n})
                  for c in lh.CHARSETS for b in (False, True) for n in ("lf", "crlf"))
data = bytes(range(256)) * 3
out["wrap"] = all(lh.unwrap(lh.wrap(data, L), L) == data and lh.unwrap_auto(lh.wrap(data, L)) == (data, L)
                  for L in (lh.random_layers(R(k), 1, 4) for k in range(20)))
f, man = lh.split_bytes(R(8), data, 5)
out["split"] = lh.join_parts(f, man) == data and len(f) == 5
try:
    p0, p1 = man["parts"][0]["path"], man["parts"][1]["path"]
    lh.join_parts(dict(f, **{p0: f[p1], p1: f[p0]}), man)
    out["split_swapped"] = False
except lh.StressError:
    out["split_swapped"] = True
kept, cut = lh.truncate_bytes(R(9), data, 0.3)
out["truncate"] = data.startswith(kept) and 1 <= cut["length"] <= int(len(data) * 0.3) and len(kept) + cut["length"] == len(data)
tree = lh.build_manifest_tree(R(10), data, depth=3, fanout=3, wrap_rate=0.5)
out["manifest"] = lh.resolve_manifest(tree["files"], tree["root"]) == data
csv_rows = [{"a": "1", "b": 2, "c": None, "d": "x,\\"y\\"\\nz", "e": True, "f": "", "g": 2.5}]
out["csv"] = all(lh.parse_records(lh.serialize_records(csv_rows, fmt), fmt) == csv_rows for fmt in lh.RECORD_FORMATS)
print(json.dumps(out))`);
    for (const [name, ok] of Object.entries(got)) expect([name, ok]).toEqual([name, true]);
    expect(Object.keys(got).length).toBe(19);
  });

  it("encode and decode PNG, and rotate, crop and add noise within their bounds", () => {
    const got = py<Record<string, boolean>>(`
out = {}
imgs = [lh.Raster(w, h, c, bytes((i * 31 + 7) % 256 for i in range(w * h * c))) for w, h, c in ((5, 4, 1), (6, 3, 2), (7, 5, 3), (4, 4, 4))]
out["png"] = all(lh.decode_png(lh.encode_png(im, filter=f, idat_size=s)) == im
                 for im in imgs for f in ("auto", "cycle", 0, 1, 2, 3, 4) for s in (None, 7))
img = imgs[2]
out["rotate"] = all(lh.rotate(lh.rotate(img, a), 360 - a) == img for a in (90, 270)) and lh.rotate(lh.rotate(img, 180), 180) == img
r90 = lh.rotate(img, 90)
out["rotate_shape"] = (r90.width, r90.height) == (img.height, img.width) and r90.data[0:3] == img.data[(img.height - 1) * img.width * 3:(img.height - 1) * img.width * 3 + 3]
c, box = lh.random_crop(lh.Rng(3), img, 0.5)
out["crop"] = all(c.data[(y * c.width + x) * 3:(y * c.width + x + 1) * 3] ==
                  img.data[((box["y"] + y) * img.width + box["x"] + x) * 3:((box["y"] + y) * img.width + box["x"] + x + 1) * 3]
                  for y in range(c.height) for x in range(c.width))
n = lh.add_noise(lh.Rng(4), imgs[3], 5)
out["noise"] = lh.max_abs_diff(n, imgs[3]) <= 5 and all(n.data[i] == imgs[3].data[i] for i in range(3, len(n.data), 4))
p = lh.perturb_image(lh.Rng(5), img, crop=True, rotate_image=True, noise_bound=3)
out["perturb"] = lh.decode_png(p["png"]) == p["image"] and p["rotation"] in (90, 180, 270) and p["crop"] is not None
try:
    lh.decode_png(lh.encode_png(img)[:-20])
    out["truncated_png"] = False
except lh.StressError:
    out["truncated_png"] = True
print(json.dumps(out))`);
    for (const [name, ok] of Object.entries(got)) expect([name, ok]).toEqual([name, true]);
  });
});
