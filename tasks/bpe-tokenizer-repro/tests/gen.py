"""Hidden-case generator: synthetic multilingual corpora, configurations, test texts and audit
releases with planted faults. Expected values come from ref.py (an independent reading of
SPEC.md) and from the plan of planted faults."""
import json
import ref

CONS = {
    "lat": list("bcdfglmnprstv") + ["ch", "qu"],
    "grc": list("βγδζθκλμνξπρστφχψ"),
    "cyr": list("бвгджзклмнпрстфхцчш"),
}
VOWS = {
    "lat": list("aeiou") + ["é", "è", "à", "ô", "ü"],
    "grc": list("αεηιουω") + ["ά", "έ", "ί", "ό"],
    "cyr": list("аеиоуыэюя"),
}
HAN = list("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长")
LONG_SPECIAL = ("<|im_start|>", "<|im_start|>system")
OTHER_SPECIALS = ["<|endoftext|>", "<pad>", "<|sep|>"]
NFKC_BITS = ["ﬁ", "ﬂ", "²", "Ⅻ", "ｶ", "№", "㎏", "…"]


def lexicon(rng, lang, n):
    words = set()
    while len(words) < n:
        if lang == "han":
            w = "".join(rng.choice(HAN) for _ in range(rng.choice((1, 1, 2, 2, 2, 3))))
        else:
            w = ""
            for _ in range(rng.choice((1, 2, 2, 3, 3, 4))):
                w += rng.choice(CONS[lang]) + rng.choice(VOWS[lang])
                if rng.random() < 0.2:
                    w += rng.choice(CONS[lang])
        words.add(w)
    words = sorted(words)
    rng.shuffle(words)
    return words


def zipf_pick(rng, words):
    # weights 1/(r+1) by inverse transform on a precomputed table
    tot = sum(1.0 / (r + 1) for r in range(len(words)))
    x = rng.random() * tot
    for r, w in enumerate(words):
        x -= 1.0 / (r + 1)
        if x <= 0:
            return w
    return words[-1]


def decompose(w):
    import unicodedata
    return unicodedata.normalize("NFD", w)


def sentence(rng, lang, lex, feats):
    n = rng.randint(3, 9)
    parts = []
    for i in range(n):
        w = zipf_pick(rng, lex)
        r = rng.random()
        if "norm" in feats and r < 0.12 and lang != "han":
            w = decompose(w)
        elif "norm" in feats and r < 0.18:
            w = w[:1] + rng.choice(NFKC_BITS) + w[1:]
        elif "runs" in feats and r < 0.28 and lang != "han":
            k = rng.randint(1, len(w))
            w = w[:k] + w[k - 1] * rng.randint(2, 5) + w[k:]
        if i == 0 and lang in ("lat", "grc", "cyr") and rng.random() < 0.5:
            w = w[:1].upper() + w[1:]
        parts.append(w)
        if rng.random() < 0.08:
            num = str(rng.randint(0, 9999))
            if "norm" in feats and rng.random() < 0.4:
                num = "".join(chr(0xFF10 + int(d)) for d in num)
            parts.append(num)
    if lang == "han":
        s = "".join(p if rng.random() < 0.85 else p + "，" for p in parts)
        return s + rng.choice(("。", "。", "！", "？"))
    out = parts[0]
    for p in parts[1:]:
        r = rng.random()
        sep = " "
        if r < 0.06:
            sep = "  "
        elif r < 0.09:
            sep = "\t"
        elif r < 0.12 and "norm" in feats:
            sep = "\u00a0"
        elif r < 0.16:
            sep = ", "
        out += sep + p
    end = rng.choice((".", ".", ".", "!", "?", "...", "!!!" if "runs" in feats else ";", " :"))
    return out + end


def with_specials(rng, line, specials, rate):
    if not specials or rng.random() > rate:
        return line
    toks = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        s = rng.choice(specials)
        r = rng.random()
        if r < 0.15:
            s = s + rng.choice(specials)
        elif r < 0.3:
            s = s + "ic"       # text glued after a special
        elif r < 0.4:
            s = s[:-2]         # an unfinished special is plain text
        elif r < 0.5:
            s = s.replace("<", "\uff1c").replace(">", "\uff1e")   # fullwidth: text on the raw side
        pos = rng.randint(0, len(toks))
        toks.insert(pos, s)
    return " ".join(toks)


def pick_specials(rng, lo=0, hi=3):
    n = rng.randint(lo, hi)
    out = []
    if n >= 2 or (n == 1 and rng.random() < 0.5):
        out += list(LONG_SPECIAL)
        if rng.random() < 0.3:
            out.reverse()
        n = max(0, n - 2)
    pool = list(OTHER_SPECIALS)
    rng.shuffle(pool)
    out += pool[:n]
    rng.shuffle(out) if rng.random() < 0.3 else None
    return out


def corpus(rng, langs, lines, feats, specials, rate=0.15):
    out = {}
    for lang in langs:
        lex = lexicon(rng, lang, rng.randint(40, 90))
        docs = []
        for _ in range(lines):
            s = sentence(rng, lang, lex, feats)
            if rng.random() < 0.3:
                s += " " + sentence(rng, lang, lex, feats)
            docs.append(with_specials(rng, s, specials, rate))
        out[lang] = docs
    return out


def docs_text(docs):
    return ("\n".join(docs) + "\n").encode("utf-8")


def all_docs(corp):
    return [d for lang in sorted(corp) for d in corp[lang]]


FEATS = ("norm", "runs")


def train_case(rng, kind):
    """(config, {lang: docs}, expected merges). kind: ties | norm | specials."""
    feats = {"ties": ("runs",), "norm": ("norm", "runs"), "specials": ("runs",)}[kind]
    specials = pick_specials(rng, 2, 4) if kind == "specials" else pick_specials(rng, 0, 1)
    form = rng.choice(("NFC", "NFKC")) if kind == "norm" else rng.choice(("none", "NFC", "NFKC"))
    langs = sorted(rng.sample(["lat", "grc", "cyr", "han"], rng.randint(2, 3)))
    corp = corpus(rng, langs, rng.randint(18, 28), feats, specials, 0.4 if kind == "specials" else 0.1)
    n = rng.randint(50, 100)
    cfg = {"vocab_size": 256 + len(specials) + n, "normalization": form,
           "special_tokens": specials, "min_frequency": rng.choice((2, 2, 3))}
    table = ref.word_table(all_docs(corp), specials, form)
    merges, _ = ref.naive_train(table, n, cfg["min_frequency"])
    return cfg, corp, merges


def vocab_entries(merges, specials):
    v = [{"id": i, "bytes": "%02x" % i} for i in range(256)]
    v += [{"id": 256 + r, "bytes": (a + b).hex()} for r, (a, b) in enumerate(merges)]
    v += [{"id": 256 + len(merges) + j, "special": s} for j, s in enumerate(specials)]
    return v


def merges_text(merges):
    return "".join("%s %s\n" % (a.hex(), b.hex()) for a, b in merges).encode()


def tokenizer_files(merges, specials, form):
    return {
        "merges.txt": merges_text(merges),
        "vocab.json": (json.dumps(vocab_entries(merges, specials), ensure_ascii=False) + "\n").encode(),
        "tokenizer.json": (json.dumps({"normalization": form, "special_tokens": specials}, ensure_ascii=False) + "\n").encode(),
    }


def encode_case(rng):
    """(tokenizer files, input text bytes, expected lines)."""
    specials = pick_specials(rng, 2, 4)
    # the shorter of the nested pair listed first: only longest-match splitting reads it right
    specials = list(LONG_SPECIAL) + [t for t in specials if t not in LONG_SPECIAL][:2]
    form = rng.choice(("NFC", "NFKC"))
    langs = sorted(rng.sample(["lat", "grc", "cyr", "han"], 3))
    corp = corpus(rng, langs, 22, ("norm", "runs"), specials, 0.1)
    n = rng.randint(70, 120)
    merges, _ = ref.naive_train(ref.word_table(all_docs(corp), specials, form), n, 2)
    test = corpus(rng, langs, 16, ("norm", "runs"), specials, 0.6)
    docs = all_docs(test)
    rng.shuffle(docs)
    docs = [" ".join(docs[i:i + 3]) for i in range(0, len(docs), 3)]
    docs.insert(rng.randint(0, len(docs)), "")
    docs.append("".join(rng.choice(specials) for _ in range(3)))
    rng.shuffle(docs)
    cache = {}
    want = [" ".join(str(i) for i in ref.encode_line(d, merges, specials, form, cache=cache)[0]) for d in docs]
    return tokenizer_files(merges, specials, form), docs_text(docs), want


def stats_case(rng, kind="plain"):
    """(files {relpath: bytes}, expected rows [(vocab_size, lang, merges, types, bpt, fert, oov)])."""
    specials = pick_specials(rng, 1, 3)
    form = rng.choice(("NFC", "NFKC")) if kind != "plain" else rng.choice(("none", "NFC", "NFKC"))
    langs = sorted(rng.sample(["lat", "grc", "cyr", "han"], rng.randint(2, 4)))
    feats = ("norm", "runs")
    train = corpus(rng, langs, rng.randint(14, 20), feats, specials, 0.15)
    ev = corpus(rng, langs, rng.randint(10, 14), feats, specials, 0.3)
    mf = rng.choice((2, 3))
    table = ref.word_table(all_docs(train), specials, form)
    sizes = sorted(rng.sample(range(40, 160, 10), 3))
    if rng.random() < 0.5:
        sizes[-1] = 300   # more merges than the corpus supports: training stops at min_frequency
    merges, _ = ref.naive_train(table, max(sizes), mf)
    cfg = {"train": "corpus/train", "eval": "corpus/eval", "normalization": form,
           "special_tokens": specials, "min_frequency": mf,
           "vocab_sizes": [256 + len(specials) + s for s in sizes]}
    rng.shuffle(cfg["vocab_sizes"])
    files = {"config.json": (json.dumps(cfg, ensure_ascii=False, indent=1) + "\n").encode()}
    for lang in langs:
        files["corpus/train/%s.txt" % lang] = docs_text(train[lang])
        files["corpus/eval/%s.txt" % lang] = docs_text(ev[lang])
    rows = []
    for v in cfg["vocab_sizes"]:
        m = merges[:v - 256 - len(specials)]
        for lang in langs:
            st = ref.lang_stats(ev[lang], m, specials, form)
            rows.append((v, lang, len(m), st["types"], st["bytes_per_token"], st["fertility"], st["oov_rate"]))
    return files, rows


# ---- audit releases ------------------------------------------------------------------------

PLANTS = ["clean", "clean", "tie_swap", "overlap_trained", "boundary_trained", "norm_skipped",
          "truncated", "vocab_swap", "vocab_bytes", "specials_order", "special_missing", "stat_typo",
          "stat_types", "stats_unnormalized", "stats_leftmost", "combo_trunc_typo", "combo_tie_vocab"]


def claimed_stats(ev, merges, specials, form, enc=ref.lowest_rank_encode, form_eval=None):
    rows = []
    for lang in sorted(ev):
        st = ref.lang_stats(ev[lang], merges, specials, form if form_eval is None else form_eval, enc)
        rows.append({"lang": lang, "types": st["types"], "bytes_per_token": round(st["bytes_per_token"], 4),
                     "fertility": round(st["fertility"], 4), "oov_rate": round(st["oov_rate"], 4)})
    return rows


def stats_differ(a, b):
    for x, y in zip(a, b):
        if x["types"] != y["types"]:
            return True
        for k in ("bytes_per_token", "fertility", "oov_rate"):
            if abs(x[k] - y[k]) > 2e-4:
                return True
    return False


def release(rng, n_art=13):
    """(files {relpath: bytes}, {artifact: sorted codes})."""
    files = {}
    corpora = {}
    for c in ("c1", "c2"):
        specials = pick_specials(rng, 2, 3)
        form = rng.choice(("NFC", "NFKC"))
        langs = sorted(rng.sample(["lat", "grc", "cyr", "han"], 2))
        tr = corpus(rng, langs, rng.randint(22, 30), ("norm", "runs"), specials, 0.15)
        ev = corpus(rng, langs, 10, ("norm", "runs"), specials, 0.3)
        for lang in langs:
            files["corpora/%s/train/%s.txt" % (c, lang)] = docs_text(tr[lang])
            files["corpora/%s/eval/%s.txt" % (c, lang)] = docs_text(ev[lang])
        corpora[c] = (tr, ev, specials, form)
    plants = ["clean"] + rng.sample(PLANTS[1:], n_art - 1)
    rng.shuffle(plants)
    want = {}
    full = {}
    for c in sorted(corpora):
        tr, ev, specials, form = corpora[c]
        table = ref.word_table(all_docs(tr), specials, form)
        # one run to the largest size: a smaller run learns a prefix of it (SPEC.md section 4)
        full[c] = (table, ref.naive_train(table, 90, 2))
    used = set()
    for plant in plants:
        while True:
            name = "tok-%s-%03d" % (rng.choice(("base", "mini", "wide", "lite", "pro")), rng.randint(0, 999))
            if name not in used:
                used.add(name)
                break
        c = rng.choice(("c1", "c2"))
        tr, ev, specials, form = corpora[c]
        docs = all_docs(tr)
        n = rng.randint(40, 90)
        mf = 2
        table, (all_m, all_c) = full[c]
        true_m, counts = all_m[:n], all_c[:n]
        n = len(true_m)
        merges = list(true_m)
        vocab = vocab_entries(merges, specials)
        codes = set()
        stats_enc, stats_form = ref.lowest_rank_encode, None
        typo = None
        claim_size = 256 + n + len(specials)
        p = plant
        if p in ("tie_swap", "combo_tie_vocab"):
            cand = [i for i in range(n - 1) if counts[i] == counts[i + 1]
                    and merges[i][0] + merges[i][1] not in merges[i + 1] and merges[i] != merges[i + 1]]
            if cand:
                i = rng.choice(cand)
                merges[i], merges[i + 1] = merges[i + 1], merges[i]
                codes.add("merges")
            else:
                p = "stat_typo"
        elif p == "overlap_trained":
            merges = ref.naive_train(table, n, mf, overlap=True)[0]
        elif p == "boundary_trained":
            merges = ref.naive_train(ref.word_table(docs, specials, form, boundaries=False), n, mf)[0]
        elif p == "norm_skipped":
            merges = ref.naive_train(ref.word_table(docs, specials, "none"), n, mf)[0]
        if p in ("overlap_trained", "boundary_trained", "norm_skipped"):
            if merges != true_m and len(merges) == n:
                codes.add("merges")
            else:
                merges = list(true_m)
                p = "stat_typo"
        if p in ("truncated", "combo_trunc_typo"):
            k = rng.randint(1, 4)
            merges = merges[:-k]
            codes.update(("merges", "size"))
        vocab = vocab_entries(merges, specials)
        if p in ("vocab_swap", "combo_tie_vocab"):
            i, j = sorted(rng.sample(range(256, 256 + len(merges)), 2))
            while vocab[i]["bytes"] == vocab[j]["bytes"]:   # two merges spelling the same bytes
                i, j = sorted(rng.sample(range(256, 256 + len(merges)), 2))
            vocab[i]["bytes"], vocab[j]["bytes"] = vocab[j]["bytes"], vocab[i]["bytes"]
            codes.add("vocab")
        elif p == "vocab_bytes":
            i = rng.randint(256, 255 + len(merges))
            a, b = merges[i - 256]
            wrong = b + a if b + a != a + b else a + b + b
            vocab[i]["bytes"] = wrong.hex()
            codes.add("vocab")
        elif p == "specials_order":
            base = 256 + len(merges)
            names = [vocab[base + j]["special"] for j in range(len(specials))]
            names = names[1:] + names[:1]
            for j in range(len(specials)):
                vocab[base + j]["special"] = names[j]
            codes.add("specials")
        elif p == "special_missing":
            vocab.pop()
            codes.update(("specials", "size"))
        honest = claimed_stats(ev, merges, specials, form)
        claim = honest
        if p in ("stats_unnormalized", "stats_leftmost"):
            if p == "stats_unnormalized":
                claim = claimed_stats(ev, merges, specials, form, form_eval="none")
            else:
                claim = claimed_stats(ev, merges, specials, form, enc=ref.leftmost_encode)
            if stats_differ(claim, honest):
                codes.add("stats")
            else:
                claim = honest
                p = "stat_typo"
        if p in ("stat_typo", "combo_trunc_typo", "stat_types"):
            claim = [dict(r) for r in claim]
            r = rng.choice(claim)
            if p == "stat_types":
                r["types"] += rng.choice((-2, -1, 1, 3))
            else:
                k = rng.choice(("bytes_per_token", "fertility", "oov_rate"))
                d = rng.choice((-1, 1)) * rng.choice((0.001, 0.002, 0.005, 0.01, 0.03))
                r[k] = round(abs(r[k] + d), 4) if r[k] + d > 0 else round(r[k] + 0.01, 4)
            codes.add("stats")
        claims = {"corpus": c, "vocab_size": claim_size, "normalization": form, "special_tokens": specials,
                  "min_frequency": mf, "stats": claim}
        d = "artifacts/%s/" % name
        files[d + "merges.txt"] = merges_text(merges)
        files[d + "vocab.json"] = (json.dumps(vocab, ensure_ascii=False) + "\n").encode()
        files[d + "claims.json"] = (json.dumps(claims, ensure_ascii=False, indent=1) + "\n").encode()
        want[name] = sorted(codes)
    return files, want
