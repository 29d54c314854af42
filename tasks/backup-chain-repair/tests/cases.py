"""Hidden-case builders: each returns planned inputs and the answers derived from the plan."""
import hashlib
import json
import random
from datetime import datetime, timedelta

import refsnap as R


def mutate(rnd, tree, allow_type=True):
    """A next version of a tree: edits, a mode change, a new file, a removal, a relinked symlink."""
    t = {p: dict(n) for p, n in tree.items()}
    files = sorted(p for p, n in t.items() if n["type"] == "file" and n["data"])
    rnd.shuffle(files)
    a, b, c, d = files[:4]
    t[a]["data"] = R.content(rnd, "rand")
    t[a]["mtime"] += rnd.randint(60, 9999)
    t[b]["mode"] = 0o600 if t[b]["mode"] != 0o600 else 0o644
    del t[c]
    t[d]["mtime"] += 1
    t["src/new-%d.bin" % rnd.randint(100, 999)] = {"type": "file", "mode": 0o644, "mtime": 1710000000 + rnd.randint(0, 99999), "data": R.content(rnd, rnd.choice(["rand", "tail"]))}
    t["link-src"] = {"type": "symlink", "target": rnd.choice(["docs", "data", "src/lib"])}
    t["empty-dir"]["mode"] = 0o700 if t["empty-dir"]["mode"] != 0o700 else 0o755
    if allow_type:
        t["data/void"] = {"type": "file", "mode": 0o644, "mtime": 1720000000, "data": b""}
    return t


def chunk_case(rnd):
    kinds = ["rand", "text", "tail", "tail", "tail", "rand"]
    files = {}
    for i, k in enumerate(kinds):
        data = R.content(rnd, k)
        while k != "tail" and len(R.cut_points(data)) < 2:
            data += rnd.randbytes(700)
        files["f%d-%s.bin" % (i, k)] = data
    files["zeros.bin"] = bytes(256 * rnd.randint(2, 5) + rnd.randint(1, 255))
    files["ones.bin"] = b"\x01" * (1024 * rnd.randint(2, 4))
    want = {}
    for name, data in files.items():
        ends = R.cut_points(data)
        want[name] = [[str(a), str(b - a), R.sha(data[a:b])] for a, b in zip([0] + ends[:-1], ends)]
    return files, want


def backup_case(rnd):
    t1 = R.plan_tree(rnd, safe_modes=True)
    t2 = {p: dict(n) for p, n in t1.items()}
    files = sorted(p for p, n in t1.items() if n["type"] == "file" and len(n["data"]) > 300)
    rnd.shuffle(files)
    grow, same, touched, moded = (files + files)[:4]
    t2[grow]["data"] = t1[grow]["data"] + rnd.randbytes(rnd.randint(1, 400))           # same mtime, new size
    body = bytearray(t1[same]["data"])
    for k in range(0, len(body), 97):
        body[k] ^= 0x5A
    t2[same]["data"] = bytes(body)                                                     # same size and mtime
    t2[touched]["data"] = R.content(rnd, "rand")
    t2[touched]["mtime"] += 3600
    t2[moded]["mode"] = 0o755 if t2[moded]["mode"] != 0o755 else 0o644
    t2["src/lib/added.txt"] = {"type": "file", "mode": 0o644, "mtime": 1733000000, "data": R.content(rnd, "tail")}
    victim = rnd.choice([p for p, n in t2.items() if n["type"] == "file" and p not in (grow, same, touched, moded, "src/lib/added.txt")])
    del t2[victim]
    d1 = datetime(2026, 1, 1) + timedelta(minutes=rnd.randint(0, 500000))
    times = [R.stamp(d1), R.stamp(d1 + timedelta(minutes=rnd.randint(1, 5000)))]
    e1 = R.entries_of(t1)
    prev = {e["path"]: e for e in e1 if e["type"] == "file"}
    reuse = {p: prev[p]["chunks"] for p, n in t2.items()
             if n["type"] == "file" and p in prev and prev[p]["size"] == len(n["data"]) and prev[p]["mtime"] == n["mtime"]}
    e2 = R.entries_of(t2, reuse)
    chunk_bytes = {}
    for t in (t1, t2):
        for n in t.values():
            if n["type"] == "file":
                for c in R.pieces(n["data"]):
                    chunk_bytes[R.sha(c)] = c
    want = {"snaps": [{"id": R.sid(times[0]), "time": times[0], "parent": None, "entries": e1},
                      {"id": R.sid(times[1]), "time": times[1], "parent": R.sid(times[0]), "entries": e2}],
            "restore": R.listing_of(t2, chunk_bytes, e2), "chunk_bytes": chunk_bytes}
    return (t1, t2, times, rnd.choice([0, 60, -300])), want


def written_repo(rnd, n_snaps, repack_after, keep_old=False, offset=0, start=None):
    """A repository of n_snaps evolving trees written by the grader's writer; trees returned too."""
    w = R.RepoWriter(offset, rnd)
    tree = R.plan_tree(rnd, extra=1)
    trees, snaps = [], []
    t = start or datetime(2025, 6, 1) + timedelta(minutes=rnd.randint(0, 200000))
    old_packs = []
    for k in range(n_snaps):
        if k:
            tree = mutate(rnd, tree, allow_type=(k == 1))
        t += timedelta(minutes=rnd.randint(30, 4000))
        data = {}
        for n in tree.values():
            if n["type"] == "file":
                for c in R.pieces(n["data"]):
                    data[R.sha(c)] = c
        snaps.append(w.add(R.stamp(t), R.entries_of(tree), data))
        trees.append(tree)
        if k + 1 == repack_after:
            old_packs = {k2: v for k2, v in w.files.items() if k2.startswith("packs/")}
            w.repack()
            if keep_old:
                k2 = rnd.choice(sorted(old_packs))
                w.files[k2] = old_packs[k2]
    return w, trees, snaps


def restore_case(rnd):
    w, trees, snaps = written_repo(rnd, 3, 2)
    t1 = datetime.strptime(snaps[1]["time"], "%Y-%m-%dT%H:%M:%SZ")
    between = R.stamp(t1 + timedelta(seconds=rnd.randint(0, 1700)))
    refs = [(snaps[0]["id"], 0), (snaps[1]["time"], 1), (between, 1), ("latest", 2)]
    want = [(ref, R.listing_of(trees[k])) for ref, k in refs]
    return w, want


def forget_times(rnd, year, offset):
    """Local times around the turn of `year`, some close to local midnight, returned as UTC stamps."""
    out = set()
    base = datetime(year - 1, 11, 20)
    for _ in range(rnd.randint(22, 30)):
        day = base + timedelta(days=rnd.randint(0, 60))
        hour = rnd.choice([0, 0, 1, 23, 23, 22, rnd.randint(2, 21)])
        out.add(day + timedelta(hours=hour, minutes=rnd.randint(0, 59)))
    for day in (datetime(year - 1, 12, 30), datetime(year - 1, 12, 31), datetime(year, 1, 2)):
        out.add(day + timedelta(hours=rnd.randint(8, 18), minutes=rnd.randint(0, 59)))
    return sorted(R.stamp(t - timedelta(minutes=offset)) for t in out)


def diff_forget_case(rnd):
    w, trees, snaps = written_repo(rnd, 2, 0)
    diff_want = R.diff_rows(snaps[0]["entries"], snaps[1]["entries"])
    offset = rnd.choice([-480, -300, -240, 60, 120, 330, 540, 600])
    year = rnd.choice([2025, 2026, 2027])
    f = R.RepoWriter(offset, rnd)
    for k, t in enumerate(forget_times(rnd, year, offset)):
        tree = {"state.txt": {"type": "file", "mode": 0o644, "mtime": 1700000000 + k, "data": b"state %d\n" % k}}
        f.add(t, R.entries_of(tree), {R.sha(b"state %d\n" % k): b"state %d\n" % k})
    keep = {"last": rnd.randint(1, 3), "daily": rnd.randint(4, 9), "weekly": rnd.randint(5, 9), "monthly": rnd.randint(2, 3)}
    args = []
    for k in ("last", "daily", "weekly", "monthly"):
        args += ["--keep-" + k, str(keep[k])]
    return w, f, (snaps[0]["id"], snaps[1]["id"]), diff_want, args, R.forget_rows(f.snaps, offset, keep)


def check_repo(files):
    """The grader's own audit of an in-memory repository (path -> bytes), section 7 of the spec."""
    idx = []
    for path, blob in files.items():
        if path.startswith("index/"):
            doc = json.loads(blob)
            idx.append((doc["seq"], doc["entries"]))
    eff = {}
    for seq, entries in sorted(idx, key=lambda t: t[0], reverse=True):
        for e in entries:
            eff.setdefault(e["id"], e)
    found = set()
    for cid, e in eff.items():
        blob = files.get("packs/%s.pack" % e["pack"])
        if blob is None:
            found.add(("MISSING_PACK", "", "", cid))
        elif e["offset"] < 0 or e["length"] < 0 or e["offset"] + e["length"] > len(blob):
            found.add(("INDEX_OUT_OF_RANGE", "", "", cid))
        elif hashlib.sha256(blob[e["offset"]:e["offset"] + e["length"]]).hexdigest() != cid:
            found.add(("CORRUPT_CHUNK", "", "", cid))
    named = {e["pack"] for e in eff.values()}
    for path in files:
        if path.startswith("packs/") and path.endswith(".pack") and path[6:-5] not in named:
            found.add(("ORPHAN_PACK", "", "", path[6:-5]))
    manifests = [json.loads(b) for p, b in files.items() if p.startswith("snapshots/")]
    present = {m["id"] for m in manifests}
    for m in manifests:
        if m["parent"] is not None and m["parent"] not in present:
            found.add(("DANGLING_PARENT", m["id"], "", m["parent"]))
        for e in m["entries"]:
            if e["type"] == "file":
                lost = [c for c in e["chunks"] if c not in eff]
                found.update(("MISSING_CHUNK", m["id"], e["path"], c) for c in lost)
                if not lost and e["size"] != sum(eff[c]["length"] for c in e["chunks"]):
                    found.add(("SIZE_MISMATCH", m["id"], e["path"], ""))
    order = ["MISSING_PACK", "INDEX_OUT_OF_RANGE", "CORRUPT_CHUNK", "ORPHAN_PACK", "MISSING_CHUNK", "SIZE_MISMATCH", "DANGLING_PARENT"]
    return sorted(found, key=lambda r: (order.index(r[0]),) + r[1:])


def plant_defects(rnd, w, snaps, kinds):
    """Plants the chosen defects into the writer's files; returns the planted findings' codes."""
    files = w.files
    by_pack = {}
    for cid, (pack, off, ln) in w.loc.items():
        by_pack.setdefault(pack, []).append((off, ln, cid))
    packs = sorted(by_pack, key=lambda p: -len(by_pack[p]))
    planted, hit = [], set()
    live = sorted(by_pack)
    rnd.shuffle(live)
    if "missing_pack" in kinds and len(live) > 2:
        p = live.pop()
        del files["packs/%s.pack" % p]
        hit.update(c for _o, _l, c in by_pack[p])
        planted.append("MISSING_PACK")
    if "truncate" in kinds and len(live) > 1:
        p = live.pop()
        off, ln, cid = max(by_pack[p])
        files["packs/%s.pack" % p] = files["packs/%s.pack" % p][:off + rnd.randint(0, ln - 1)]
        hit.add(cid)
        planted.append("INDEX_OUT_OF_RANGE")
    if "corrupt" in kinds and live:
        p = live[0]
        off, ln, cid = rnd.choice(by_pack[p])
        blob = bytearray(files["packs/%s.pack" % p])
        blob[off + rnd.randint(0, ln - 1)] ^= 0x40
        hit.add(cid)
        files["packs/%s.pack" % p] = bytes(blob)
        planted.append("CORRUPT_CHUNK")
    if "orphan" in kinds:
        files["packs/p%016x.pack" % rnd.getrandbits(64)] = rnd.randbytes(rnd.randint(100, 3000))
        planted.append("ORPHAN_PACK")
    alive = [s for s in snaps if "snapshots/%s.json" % s["id"] in files]
    if "dangling" in kinds:
        gone = snaps[0]
        del files["snapshots/%s.json" % gone["id"]]
        alive = [s for s in alive if s is not gone]
        planted.append("DANGLING_PARENT")
    edits = {}
    if "missing_chunk" in kinds or "size" in kinds:
        pairs = [(s, e) for s in alive for e in s["entries"] if e["type"] == "file" and e["chunks"]]
        rnd.shuffle(pairs)
        if "missing_chunk" in kinds:
            s, e = pairs.pop()
            fake = hashlib.sha256(b"lost %d" % rnd.getrandbits(32)).hexdigest()
            e["chunks"][rnd.randint(0, len(e["chunks"]) - 1)] = fake
            if rnd.random() < 0.5:
                e["chunks"].append(fake)
            edits[s["id"]] = s
            planted.append("MISSING_CHUNK")
        if "size" in kinds:
            s, e = pairs.pop()
            e["size"] += rnd.choice([-1, 1, 17, 1024])
            edits[s["id"]] = s
            planted.append("SIZE_MISMATCH")
    if "override" in kinds:
        pack = rnd.choice(sorted(p for p in by_pack if "packs/%s.pack" % p in files))
        size = len(files["packs/%s.pack" % pack])
        ids = sorted(c for c in w.loc if c not in hit)
        rnd.shuffle(ids)
        w.seq += 1
        files["index/%06d.json" % w.seq] = json.dumps({"seq": w.seq, "entries": [
            {"id": ids[0], "pack": pack, "offset": size - 5, "length": 40},
            {"id": ids[1], "pack": pack, "offset": 1, "length": min(size - 1, 5)}]}).encode()
        planted += ["INDEX_OUT_OF_RANGE", "CORRUPT_CHUNK"]
    for s in edits.values():
        files["snapshots/%s.json" % s["id"]] = json.dumps(s).encode()
    return planted


AUDIT_KINDS = ["missing_pack", "truncate", "corrupt", "orphan", "dangling", "missing_chunk", "size", "override"]


def audit_case(rnd):
    w, trees, snaps = written_repo(rnd, 4, 2, keep_old=rnd.random() < 0.7)
    snaps = [json.loads(json.dumps(s)) for s in snaps]
    kinds = rnd.sample(AUDIT_KINDS, rnd.randint(4, 6))
    planted = plant_defects(rnd, w, snaps, kinds)
    return w, check_repo(w.files), planted


def seeded(label, seed):
    return random.Random("%s@%s" % (seed, label))
