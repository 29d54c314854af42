"""Encoding with a trained tokenizer (SPEC.md section 6)."""
import os

from . import text, vocabio


class Tokenizer:
    def __init__(self, merges, specials, form):
        self.merges = list(merges)
        self.specials = list(specials)
        self.form = form
        self.ids = {bytes([i]): i for i in range(256)}
        for i, (a, b) in enumerate(self.merges):
            self.ids.setdefault(a + b, 256 + i)
        base = 256 + len(self.merges)
        self.special_ids = {s: base + j for j, s in enumerate(self.specials)}
        self.cache = {}

    @classmethod
    def load(cls, folder):
        merges = vocabio.read_merges(os.path.join(folder, "merges.txt"))
        meta = vocabio.read_json(os.path.join(folder, "tokenizer.json"))
        return cls(merges, meta.get("special_tokens", []), meta.get("normalization", "none"))

    def chunk_tokens(self, chunk):
        got = self.cache.get(chunk)
        if got is not None:
            return got
        sym = [bytes([x]) for x in chunk.encode("utf-8")]
        known = set(self.merges)
        i = 0
        while i < len(sym) - 1:
            if (sym[i], sym[i + 1]) in known:
                sym[i:i + 2] = [sym[i] + sym[i + 1]]
                i = max(i - 1, 0)
            else:
                i += 1
        got = [self.ids[s] for s in sym]
        self.cache[chunk] = got
        return got

    def encode_doc(self, line):
        """(ids, chunk token counts) of one document."""
        ids = []
        per_chunk = []
        for sp, seg in text.split_specials(line, self.specials):
            if sp:
                ids.append(self.special_ids[seg])
                continue
            for chunk in text.pretokenize(seg):
                t = self.chunk_tokens(chunk)
                ids.extend(t)
                per_chunk.append(len(t))
        return ids, per_chunk
