"""merges.txt, vocab.json and tokenizer.json (SPEC.md section 5)."""
import json
import os


def build_vocab(merges, specials):
    vocab = [{"id": i, "bytes": bytes([i]).hex()} for i in range(256)]
    for i, (a, b) in enumerate(merges):
        vocab.append({"id": 256 + i, "bytes": (a + b).hex()})
    base = 256 + len(merges)
    for j, s in enumerate(specials):
        vocab.append({"id": base + j, "special": s})
    return vocab


def write_tokenizer(out_dir, merges, specials, form):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "merges.txt"), "w", encoding="utf-8", newline="\n") as f:
        for a, b in merges:
            f.write("%s %s\n" % (a.hex(), b.hex()))
    with open(os.path.join(out_dir, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(build_vocab(merges, specials), f, ensure_ascii=False, indent=0)
        f.write("\n")
    with open(os.path.join(out_dir, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump({"normalization": form, "special_tokens": list(specials)}, f, ensure_ascii=False, indent=1)
        f.write("\n")


def read_merges(path):
    merges = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            a, b = line.split()
            merges.append((bytes.fromhex(a), bytes.fromhex(b)))
    return merges


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
