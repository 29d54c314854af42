"""Grades /app/tokctl.py (train, encode, stats, audit) on the shipped cases and on seeded hidden
corpora, texts and releases.

Expected merges come from ref.py's naive recount-from-scratch trainer, encodings from its
lowest-rank-pair encoder, tables from its statistics, and audit codes from the faults gen.py
planted; nothing here runs or copies the solution's code.
"""
import csv
import json
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lh import SEED, WORK, Grader, generate, run  # noqa: E402
import gen  # noqa: E402

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
TOKCTL = os.path.join(WORK, "tokctl.py")
PUB = os.path.join(HERE, "examples")
CELL_TOL = 6e-5
FLOATS = ("bytes_per_token", "fertility", "oov_rate")


def write_tree(tag, files):
    root = os.path.join(TMP, tag)
    for rel in sorted(files):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(files[rel])
        g.digest(rel.encode() + b"\0" + files[rel])
    return root


def stage(src, tag):
    dst = os.path.join(TMP, tag)
    shutil.copytree(src, dst)
    return dst


def read_bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def parse_merges(data):
    out = []
    for line in (data or b"").decode("utf-8", "replace").splitlines():
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2:
            out.append(("?", line))
            continue
        out.append((parts[0].lower(), parts[1].lower()))
    return out


def parse_json(data):
    try:
        return json.loads((data or b"").decode("utf-8"))
    except ValueError:
        return None


def train_score(cfg, corp_files, want_merges, want_vocab, tag):
    """Squared common-prefix share of the merges, halved when vocab.json is not exactly right."""
    files = dict(corp_files)
    files["config.json"] = (json.dumps(cfg, ensure_ascii=False, indent=1) + "\n").encode()
    root = write_tree(tag, files)
    out = os.path.join(TMP, tag + "-out")
    code, _, err = run(["python3", TOKCTL, "train", os.path.join(root, "config.json"), os.path.join(root, "corpus"), out],
                       timeout=120)
    got = parse_merges(read_bytes(os.path.join(out, "merges.txt")))
    want = parse_merges(want_merges)
    k = 0
    while k < min(len(got), len(want)) and got[k] == want[k]:
        k += 1
    share = (k / max(len(got), len(want), 1)) ** 2
    vocab_ok = parse_json(read_bytes(os.path.join(out, "vocab.json"))) == parse_json(want_vocab)
    return share * (1.0 if vocab_ok else 0.5), "%d/%d merges, vocab %s (exit %s%s)" % (
        k, len(want), "ok" if vocab_ok else "wrong", code, (" " + err.strip()[-150:]) if code else "")


def encode_score(tok_files, inp, want, tag):
    files = {"tokenizer/" + k: v for k, v in tok_files.items()}
    files["input.txt"] = inp
    root = write_tree(tag, files)
    out = os.path.join(TMP, tag + "-out.txt")
    code, _, err = run(["python3", TOKCTL, "encode", os.path.join(root, "tokenizer"), os.path.join(root, "input.txt"), out],
                       timeout=120)
    got = (read_bytes(out) or b"").decode("utf-8", "replace").split("\n")
    ok = sum(1 for i, w in enumerate(want) if i < len(got) and " ".join(got[i].split()) == w)
    return (ok / len(want)) ** 2, "%d/%d lines (exit %s%s)" % (ok, len(want), code, (" " + err.strip()[-150:]) if code else "")


def read_table(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error):
        return []


def num(s):
    try:
        return float((s or "").strip())
    except ValueError:
        return None


def table_score(cfg_path, want_rows, tag):
    out = os.path.join(TMP, tag + "-table.csv")
    # the config names its corpus folders relative to itself: show the whole case folder
    code, _, err = run(["python3", TOKCTL, "stats", cfg_path, out], timeout=180, ro=(os.path.dirname(cfg_path),))
    got = {}
    for r in read_table(out):
        got[((r.get("vocab_size") or "").strip(), (r.get("lang") or "").strip())] = r
    ok = 0
    for v, lang, m, t, b, f, o in want_rows:
        r = got.get((str(v), lang)) or {}
        cells = [num(r.get("merges")) == m, num(r.get("types")) == t]
        for key, w in zip(FLOATS, (b, f, o)):
            x = num(r.get(key))
            cells.append(x is not None and abs(x - w) <= CELL_TOL)
        ok += all(cells)
    share = ok / len(want_rows)
    return share, "%d/%d rows (exit %s%s)" % (ok, len(want_rows), code, (" " + err.strip()[-150:]) if code else "")


def expected_rows(path):
    rows = []
    for r in read_table(path):
        rows.append((int(r["vocab_size"]), r["lang"], int(r["merges"]), int(r["types"]),
                     float(r["bytes_per_token"]), float(r["fertility"]), float(r["oov_rate"])))
    return rows


def codes_of(s):
    return sorted(x.strip().lower() for x in (s or "").split(";") if x.strip())


def audit_score(root, want, tag):
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOKCTL, "audit", root, out], timeout=300)
    got = {(r.get("artifact") or "").strip(): r for r in read_table(out)}
    ok = 0
    for name, codes in want.items():
        r = got.get(name)
        if r is None:
            continue
        verdict = (r.get("verdict") or "").strip().lower()
        ok += codes_of(r.get("reasons")) == codes and verdict == ("fail" if codes else "pass")
    return ok / len(want), "%d/%d artifacts (exit %s%s)" % (ok, len(want), code, (" " + err.strip()[-150:]) if code else "")


def expected_audit(path):
    return {r["artifact"]: codes_of(r["reasons"]) for r in read_table(path)}


def public():
    res = []
    for ex in ("example1", "example2"):
        d = stage(os.path.join(PUB, ex), "pub-" + ex)
        out = os.path.join(TMP, ex + "-train")
        run(["python3", TOKCTL, "train", os.path.join(d, "train", "config.json"), os.path.join(d, "train", "corpus"), out],
            timeout=120)
        t = all(parse_json(read_bytes(os.path.join(out, n))) == parse_json(read_bytes(os.path.join(d, "train", "expected", n)))
                for n in ("vocab.json", "tokenizer.json"))
        t = t and parse_merges(read_bytes(os.path.join(out, "merges.txt"))) == \
            parse_merges(read_bytes(os.path.join(d, "train", "expected", "merges.txt")))
        want = (read_bytes(os.path.join(d, "encode", "expected.txt")) or b"").decode().split("\n")[:-1]
        e, _ = encode_score_dir(d, want, ex)
        s, _ = table_score(os.path.join(d, "stats", "config.json"), expected_rows(os.path.join(d, "stats", "expected.csv")), ex)
        a, _ = audit_score(os.path.join(d, "audit", "releases"), expected_audit(os.path.join(d, "audit", "expected.csv")), ex)
        res.append(bool(t) and e == 1.0 and s == 1.0 and a == 1.0)
    return float(all(res)), "examples right: %s" % res


def encode_score_dir(d, want, tag):
    out = os.path.join(TMP, tag + "-enc.txt")
    code, _, _ = run(["python3", TOKCTL, "encode", os.path.join(d, "encode", "tokenizer"), os.path.join(d, "encode", "input.txt"),
                      out], timeout=120)
    got = (read_bytes(out) or b"").decode("utf-8", "replace").split("\n")
    ok = sum(1 for i, w in enumerate(want) if i < len(got) and " ".join(got[i].split()) == w)
    return ok / len(want), code


def given_work():
    p = stage(os.path.join(HERE, "paper"), "paper")
    t, m1 = table_score(os.path.join(p, "config.json"), expected_rows(os.path.join(HERE, "paper_expected.csv")), "paper")
    r = stage(os.path.join(HERE, "releases"), "releases")
    a, m2 = audit_score(r, expected_audit(os.path.join(HERE, "releases_expected.csv")), "releases")
    return 0.5 * t + 0.5 * a, "paper table %s; shipped releases %s" % (m1, m2)


def hidden_train():
    rng = random.Random("%d/train" % SEED)
    kinds = ["ties", "ties", "norm", "norm", "specials"]
    scores, msgs = [], []
    for i, kind in enumerate(kinds):
        cfg, corp, merges = generate(gen.train_case, rng, kind)
        files = {"corpus/%s.txt" % lang: gen.docs_text(docs) for lang, docs in corp.items()}
        tf = gen.tokenizer_files(merges, cfg["special_tokens"], cfg["normalization"])
        s, m = train_score(cfg, files, tf["merges.txt"], tf["vocab.json"], "train%d" % i)
        scores.append(s)
        msgs.append("%s: %s" % (kind, m))
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_encode():
    rng = random.Random("%d/encode" % SEED)
    scores, msgs = [], []
    for i in range(3):
        tok, inp, want = generate(gen.encode_case, rng)
        s, m = encode_score(tok, inp, want, "enc%d" % i)
        scores.append(s)
        msgs.append(m)
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_stats():
    rng = random.Random("%d/stats" % SEED)
    scores, msgs = [], []
    for i, kind in enumerate(("plain", "norm")):
        files, rows = generate(gen.stats_case, rng, kind)
        root = write_tree("stats%d" % i, files)
        s, m = table_score(os.path.join(root, "config.json"), rows, "stats%d" % i)
        scores.append(s)
        msgs.append(m)
    return sum(scores) / len(scores), "; ".join(msgs)


def hidden_audit():
    rng = random.Random("%d/audit" % SEED)
    scores, msgs = [], []
    for i in range(2):
        files, want = generate(gen.release, rng, 13)
        root = write_tree("audit%d" % i, files)
        s, m = audit_score(root, want, "audit%d" % i)
        scores.append(s)
        msgs.append(m)
    return sum(scores) / len(scores), "; ".join(msgs)


g.check("public_examples", public)
g.check("given_work", given_work)
g.check("hidden_train", hidden_train)
g.check("hidden_encode", hidden_encode)
g.check("hidden_stats", hidden_stats)
g.check("hidden_audit", hidden_audit)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
