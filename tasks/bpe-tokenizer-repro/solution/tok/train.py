"""Byte-level BPE training with incremental pair counts (SPEC.md section 4)."""
import os
from collections import Counter, defaultdict

from . import text


def word_counts(folder, specials, form):
    words = Counter()
    for name in text.txt_files(folder):
        for line in text.read_docs(os.path.join(folder, name)):
            for sp, seg in text.segments(line, specials, form):
                if sp:
                    continue
                for chunk in text.pretokenize(seg):
                    words[chunk.encode("utf-8")] += 1
    return words


def pair_counts(sym):
    """Non-overlapping adjacent pair counts of one word (a run of k equal symbols gives k // 2)."""
    d = Counter()
    skip = -1
    for i in range(len(sym) - 1):
        a, b = sym[i], sym[i + 1]
        if a == b:
            if skip == i:
                continue
            skip = i + 1
        d[(a, b)] += 1
    return d


def merge_word(sym, a, b):
    out = []
    i = 0
    n = len(sym)
    while i < n:
        if i + 1 < n and sym[i] == a and sym[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(sym[i])
            i += 1
    return out


def train(words, n_merges, min_frequency):
    """Merges [(left bytes, right bytes)] learned from a Counter of word bytes."""
    syms = []
    freqs = []
    for w, f in words.items():
        syms.append([bytes([x]) for x in w])
        freqs.append(f)
    counts = Counter()
    where = defaultdict(set)
    for idx, sym in enumerate(syms):
        for p, c in pair_counts(sym).items():
            counts[p] += c * freqs[idx]
            where[p].add(idx)
    merges = []
    while len(merges) < n_merges and counts:
        top = max(counts.values())
        if top < max(min_frequency, 1):
            break
        best = min(p for p, c in counts.items() if c == top)
        merges.append(best)
        a, b = best
        for idx in sorted(where.pop(best, ())):
            sym = syms[idx]
            f = freqs[idx]
            for p, c in pair_counts(sym).items():
                counts[p] -= c * f
                if counts[p] <= 0:
                    del counts[p]
                if p != best:
                    where[p].discard(idx)
            sym = merge_word(sym, a, b)
            syms[idx] = sym
            for p, c in pair_counts(sym).items():
                counts[p] += c * f
                where[p].add(idx)
        counts.pop(best, None)
    return merges


def n_merges_for(vocab_size, specials):
    n = vocab_size - 256 - len(specials)
    if n < 0:
        raise ValueError("vocab_size %d leaves no room for 256 bytes and %d special tokens" % (vocab_size, len(specials)))
    return n


def train_folder(folder, cfg):
    specials = list(cfg.get("special_tokens", []))
    form = cfg.get("normalization", "none")
    words = word_counts(folder, specials, form)
    return train(words, n_merges_for(int(cfg["vocab_size"]), specials), int(cfg.get("min_frequency", 2)))
