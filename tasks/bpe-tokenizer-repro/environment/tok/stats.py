"""Corpus statistics of the paper's table (SPEC.md section 7)."""
import os

from . import text
from .encode import Tokenizer


def eval_stats(tok, eval_dir):
    rows = []
    for name in text.txt_files(eval_dir):
        lang = name[:-4]
        n_bytes = n_tokens = n_words = n_chunks = n_split = 0
        used = set()
        for line in text.read_docs(os.path.join(eval_dir, name)):
            ids, per_chunk = tok.encode_doc(line)
            n_bytes += len(line)
            n_words += len(line.split())
            n_tokens += len(ids)
            used.update(ids)
            n_chunks += len(per_chunk)
            n_split += sum(1 for c in per_chunk if c > 1)
        rows.append({
            "lang": lang,
            "types": len(used),
            "bytes_per_token": n_bytes / n_tokens if n_tokens else 0.0,
            "fertility": n_tokens / n_words if n_words else 0.0,
            "oov_rate": n_split / n_chunks if n_chunks else 0.0,
        })
    return rows
