"""Encoding with a trained tokenizer (SPEC.md section 6): merges applied in rank order."""
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
        for a, b in self.merges:
            if len(sym) < 2:
                break
            if a not in sym:
                continue
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
            sym = out
        got = [self.ids[s] for s in sym]
        self.cache[chunk] = got
        return got

    def encode_doc(self, line):
        """(ids, chunk token counts) of one document."""
        ids = []
        per_chunk = []
        for sp, seg in text.segments(line, self.specials, self.form):
            if sp:
                ids.append(self.special_ids[seg])
                continue
            for chunk in text.pretokenize(seg):
                t = self.chunk_tokens(chunk)
                ids.extend(t)
                per_chunk.append(len(t))
        return ids, per_chunk
