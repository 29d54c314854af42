"""The grader's own reading of SPEC.md: naive recount-from-scratch trainer, lowest-rank-pair
encoder, statistics. Written apart from any solution; used for expected values only."""
import re
import unicodedata


def norm(s, form):
    return s if form == "none" else unicodedata.normalize(form, s)


def special_pieces(line, specials):
    """Split by a regex alternation ordered longest first (leftmost, then longest, match)."""
    if not specials:
        return [(False, line)] if line else []
    alt = "|".join(re.escape(s) for s in sorted(specials, key=lambda s: -len(s)))
    out = []
    pos = 0
    for m in re.finditer(alt, line):
        if m.start() > pos:
            out.append((False, line[pos:m.start()]))
        out.append((True, m.group(0)))
        pos = m.end()
    if pos < len(line):
        out.append((False, line[pos:]))
    return out


def kind(c):
    if c.isspace():
        return 0
    k = unicodedata.category(c)[0]
    return 1 if k in "LM" else 2 if k == "N" else 3


def pretokens(seg):
    """Runs of one class; a whitespace run ending in U+0020 and followed by anything gives that
    last space to the next pre-token."""
    bounds = [0]
    for i in range(1, len(seg)):
        if kind(seg[i]) != kind(seg[i - 1]):
            bounds.append(i)
    bounds.append(len(seg))
    pieces = [seg[bounds[j]:bounds[j + 1]] for j in range(len(bounds) - 1)]
    res = []
    give = False
    for j, p in enumerate(pieces):
        if give:
            p = " " + p
            give = False
        if j < len(pieces) - 1 and kind(p[-1]) == 0 and p[-1] == " " and not p.strip():
            p = p[:-1]
            give = True
        if p:
            res.append(p)
    return res


def doc_parts(line, specials, form):
    return [(sp, t if sp else norm(t, form)) for sp, t in special_pieces(line, specials)]


def word_table(docs, specials, form, boundaries=True):
    """{word bytes: count}; boundaries=False glues a segment's pre-tokens (a planted fault)."""
    tab = {}
    for line in docs:
        for sp, seg in doc_parts(line, specials, form):
            if sp:
                continue
            ws = pretokens(seg) if boundaries else [seg]
            for w in ws:
                b = w.encode("utf-8")
                tab[b] = tab.get(b, 0) + 1
    return tab


def count_pairs(words, overlap=False):
    tot = {}
    for w, f in words:
        j = 0
        while j < len(w) - 1:
            p = (w[j], w[j + 1])
            tot[p] = tot.get(p, 0) + f
            if not overlap and w[j] == w[j + 1] and j + 2 < len(w) and w[j + 2] == w[j]:
                j += 2   # the second symbol is used by this pair: skip the overlapping one
            else:
                j += 1
    return tot


def apply_merge(w, p):
    out = []
    j = 0
    while j < len(w):
        if j + 1 < len(w) and (w[j], w[j + 1]) == p:
            out.append(w[j] + w[j + 1])
            j += 2
        else:
            out.append(w[j])
            j += 1
    return tuple(out)


def naive_train(table, n_merges, min_freq, overlap=False, tie="bytes"):
    words = [(tuple(bytes([x]) for x in w), f) for w, f in sorted(table.items())]
    merges = []
    counts = []
    while len(merges) < n_merges:
        tot = count_pairs(words, overlap)
        if not tot:
            break
        best_n = max(tot.values())
        if best_n < max(min_freq, 1):
            break
        cands = sorted(p for p, n in tot.items() if n == best_n)
        p = cands[0]
        merges.append(p)
        counts.append(best_n)
        words = [(apply_merge(w, p), f) for w, f in words]
    return merges, counts


def ranks_of(merges):
    return {p: r for r, p in enumerate(merges)}


def lowest_rank_encode(b, rank):
    """Repeatedly merge every non-overlapping occurrence of the present pair of lowest rank."""
    w = tuple(bytes([x]) for x in b)
    while len(w) > 1:
        best = None
        for j in range(len(w) - 1):
            r = rank.get((w[j], w[j + 1]))
            if r is not None and (best is None or r < best):
                best = r
        if best is None:
            break
        w = apply_merge(w, _pair_at(w, rank, best))
    return w


def _pair_at(w, rank, r):
    for j in range(len(w) - 1):
        if rank.get((w[j], w[j + 1])) == r:
            return (w[j], w[j + 1])
    raise AssertionError("rank not present")


def leftmost_encode(b, rank):
    """Planted fault: merge the leftmost mergeable pair first."""
    w = list(bytes([x]) for x in b)
    while True:
        for j in range(len(w) - 1):
            if (w[j], w[j + 1]) in rank:
                w[j:j + 2] = [w[j] + w[j + 1]]
                break
        else:
            return tuple(w)


def token_ids(merges, specials):
    ids = {bytes([i]): i for i in range(256)}
    for r, (a, b) in enumerate(merges):
        if a + b not in ids:
            ids[a + b] = 256 + r
    sid = {s: 256 + len(merges) + j for j, s in enumerate(specials)}
    return ids, sid


def encode_line(line, merges, specials, form, enc=lowest_rank_encode, cache=None):
    """(ids, number of tokens of each pre-token)."""
    rank = ranks_of(merges)
    ids, sid = token_ids(merges, specials)
    cache = {} if cache is None else cache
    out = []
    sizes = []
    for sp, seg in doc_parts(line, specials, form):
        if sp:
            out.append(sid[seg])
            continue
        for w in pretokens(seg):
            if w not in cache:
                cache[w] = [ids[t] for t in enc(w.encode("utf-8"), rank)]
            out.extend(cache[w])
            sizes.append(len(cache[w]))
    return out, sizes


def lang_stats(docs, merges, specials, form, enc=lowest_rank_encode):
    cache = {}
    nb = nt = nw = nc = ns = 0
    seen = set()
    for line in docs:
        ids, sizes = encode_line(line, merges, specials, form, enc, cache)
        nb += len(line.encode("utf-8"))
        nw += len(line.split())
        nt += len(ids)
        seen.update(ids)
        nc += len(sizes)
        ns += len([s for s in sizes if s >= 2])
    return {"types": len(seen), "bytes_per_token": nb / nt, "fertility": nt / nw, "oov_rate": ns / nc}
