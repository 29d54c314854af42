"""Command line of the tok package (SPEC.md section 8).

    python3 /app/tokctl.py train CONFIG_JSON TRAIN_DIR OUT_DIR
    python3 /app/tokctl.py encode TOKENIZER_DIR IN_TXT OUT_TXT
    python3 /app/tokctl.py stats PAPER_CONFIG_JSON OUT_CSV
    python3 /app/tokctl.py audit RELEASES_DIR OUT_CSV
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tok import text, train, vocabio  # noqa: E402
from tok.encode import Tokenizer  # noqa: E402


def cmd_train(cfg_path, train_dir, out_dir):
    cfg = vocabio.read_json(cfg_path)
    merges = train.train_folder(train_dir, cfg)
    vocabio.write_tokenizer(out_dir, merges, cfg.get("special_tokens", []), cfg.get("normalization", "none"))


def cmd_encode(tok_dir, in_txt, out_txt):
    tok = Tokenizer.load(tok_dir)
    with open(out_txt, "w", encoding="utf-8", newline="\n") as f:
        for line in text.read_docs(in_txt):
            ids, _ = tok.encode_doc(line)
            f.write(" ".join(str(i) for i in ids) + "\n")


def cmd_stats(cfg_path, out_csv):
    from tok.stats import eval_stats
    cfg = vocabio.read_json(cfg_path)
    base = os.path.dirname(os.path.abspath(cfg_path))
    specials = list(cfg.get("special_tokens", []))
    form = cfg.get("normalization", "none")
    sizes = [int(v) for v in cfg["vocab_sizes"]]
    words = train.word_counts(os.path.join(base, cfg["train"]), specials, form)
    most = max(train.n_merges_for(v, specials) for v in sizes)
    merges = train.train(words, most, int(cfg.get("min_frequency", 2)))
    with open(out_csv, "w", encoding="utf-8", newline="") as f:
        f.write("vocab_size,lang,merges,types,bytes_per_token,fertility,oov_rate\n")
        for v in sizes:
            m = merges[:train.n_merges_for(v, specials)]
            tok = Tokenizer(m, specials, form)
            for r in eval_stats(tok, os.path.join(base, cfg["eval"])):
                f.write("%d,%s,%d,%d,%.4f,%.4f,%.4f\n" % (
                    v, r["lang"], len(m), r["types"], r["bytes_per_token"], r["fertility"], r["oov_rate"]))


def cmd_audit(root, out_csv):
    from tok.audit import audit
    audit(root, out_csv)


COMMANDS = {"train": (cmd_train, 3), "encode": (cmd_encode, 3), "stats": (cmd_stats, 2), "audit": (cmd_audit, 2)}


def main(argv):
    if len(argv) < 1 or argv[0] not in COMMANDS or len(argv) - 1 != COMMANDS[argv[0]][1]:
        sys.stderr.write(__doc__)
        return 2
    fn, _ = COMMANDS[argv[0]]
    fn(*argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
