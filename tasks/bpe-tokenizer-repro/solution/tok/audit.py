"""Audit of released tokenizer artifacts against their claimed training configuration."""
import json
import os

from . import train, vocabio
from .encode import Tokenizer
from .stats import eval_stats

TOL = 5e-5


def check_vocab(vocab, merges):
    """(vocab ok, specials found in id order, entry count)."""
    ok = True
    seen = {}
    for e in vocab:
        i = e.get("id")
        if not isinstance(i, int) or i in seen:
            ok = False
            continue
        seen[i] = e
    m = len(merges)
    for i in range(256 + m):
        e = seen.get(i)
        want = bytes([i]) if i < 256 else merges[i - 256][0] + merges[i - 256][1]
        if e is None or "special" in e or e.get("bytes") != want.hex():
            ok = False
    specials = []
    for i in sorted(seen):
        e = seen[i]
        if "special" in e:
            specials.append((i, e["special"]))
        elif i >= 256 + m:
            ok = False
    return ok, specials, len(vocab)


def audit_artifact(root, art_dir, cache):
    claims = vocabio.read_json(os.path.join(art_dir, "claims.json"))
    merges = vocabio.read_merges(os.path.join(art_dir, "merges.txt"))
    vocab = vocabio.read_json(os.path.join(art_dir, "vocab.json"))
    specials = list(claims.get("special_tokens", []))
    form = claims.get("normalization", "none")
    corpus = os.path.join(root, "corpora", claims["corpus"])
    codes = set()
    key = (claims["corpus"], int(claims["vocab_size"]), form, tuple(specials), int(claims.get("min_frequency", 2)))
    if key not in cache:
        cfg = {"vocab_size": key[1], "normalization": form, "special_tokens": specials, "min_frequency": key[4]}
        cache[key] = train.train_folder(os.path.join(corpus, "train"), cfg)
    if cache[key] != merges:
        codes.add("merges")
    ok, found, size = check_vocab(vocab, merges)
    if not ok:
        codes.add("vocab")
    base = 256 + len(merges)
    if found != [(base + j, s) for j, s in enumerate(specials)]:
        codes.add("specials")
    if size != int(claims["vocab_size"]):
        codes.add("size")
    got = {r["lang"]: r for r in eval_stats(Tokenizer(merges, specials, form), os.path.join(corpus, "eval"))}
    claimed = {r.get("lang"): r for r in claims.get("stats", [])}
    bad = set(got) != set(claimed)
    for lang in set(got) & set(claimed):
        g, c = got[lang], claimed[lang]
        if int(c.get("types", -1)) != g["types"]:
            bad = True
        for k in ("bytes_per_token", "fertility", "oov_rate"):
            try:
                if abs(float(c[k]) - g[k]) > TOL:
                    bad = True
            except (KeyError, TypeError, ValueError):
                bad = True
    if bad:
        codes.add("stats")
    return sorted(codes)


def audit(root, out_csv):
    arts = os.path.join(root, "artifacts")
    cache = {}
    rows = []
    for name in sorted(os.listdir(arts)):
        d = os.path.join(arts, name)
        if not os.path.isdir(d):
            continue
        codes = audit_artifact(root, d, cache)
        rows.append((name, "fail" if codes else "pass", ";".join(codes)))
    with open(out_csv, "w", encoding="utf-8", newline="") as f:
        f.write("artifact,verdict,reasons\n")
        for r in rows:
            f.write(",".join(r) + "\n")
