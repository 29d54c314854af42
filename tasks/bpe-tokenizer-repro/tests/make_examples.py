"""Renders the public examples, the paper's corpus and expected table, and the shipped releases
(run by the author after a generator change; never run at grading time).

    python3 tests/make_examples.py TASK_DIR
"""
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import ref  # noqa: E402


def put_tree(root, files):
    for rel, data in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def table_csv(rows):
    out = "vocab_size,lang,merges,types,bytes_per_token,fertility,oov_rate\n"
    for v, lang, m, t, b, f, o in rows:
        out += "%d,%s,%d,%d,%.4f,%.4f,%.4f\n" % (v, lang, m, t, b, f, o)
    return out.encode()


def audit_csv(want):
    out = "artifact,verdict,reasons\n"
    for name in sorted(want):
        out += "%s,%s,%s\n" % (name, "fail" if want[name] else "pass", ";".join(want[name]))
    return out.encode()


def example(seed):
    rng = random.Random("example/%d" % seed)
    files = {}
    cfg, corp, merges = gen.train_case(rng, ("specials", "norm")[seed % 2])
    files["train/config.json"] = (json.dumps(cfg, ensure_ascii=False, indent=1) + "\n").encode()
    for lang, docs in corp.items():
        files["train/corpus/%s.txt" % lang] = gen.docs_text(docs)
    for k, v in gen.tokenizer_files(merges, cfg["special_tokens"], cfg["normalization"]).items():
        files["train/expected/" + k] = v
    tok, inp, want = gen.encode_case(rng)
    for k, v in tok.items():
        files["encode/tokenizer/" + k] = v
    files["encode/input.txt"] = inp
    files["encode/expected.txt"] = ("\n".join(want) + "\n").encode()
    sf, rows = gen.stats_case(rng, ("plain", "norm")[seed % 2])
    for k, v in sf.items():
        files["stats/" + k] = v
    files["stats/expected.csv"] = table_csv(rows)
    rf, aw = gen.release(rng, 8)
    for k, v in rf.items():
        files["audit/releases/" + k] = v
    files["audit/expected.csv"] = audit_csv(aw)
    return files


def paper():
    rng = random.Random("paper")
    specials = ["<|im_start|>", "<|im_start|>system", "<|endoftext|>"]
    form = "NFKC"
    langs = ["cyr", "grc", "han", "lat"]
    train = gen.corpus(rng, langs, 70, ("norm", "runs"), specials, 0.1)
    ev = gen.corpus(rng, langs, 25, ("norm", "runs"), specials, 0.3)
    sizes = [320, 384, 512, 700]
    cfg = {"train": "corpus/train", "eval": "corpus/eval", "normalization": form,
           "special_tokens": specials, "min_frequency": 2, "vocab_sizes": sizes}
    files = {"config.json": (json.dumps(cfg, ensure_ascii=False, indent=1) + "\n").encode()}
    for lang in langs:
        files["corpus/train/%s.txt" % lang] = gen.docs_text(train[lang])
        files["corpus/eval/%s.txt" % lang] = gen.docs_text(ev[lang])
    table = ref.word_table(gen.all_docs(train), specials, form)
    merges, _ = ref.naive_train(table, max(sizes) - 256 - len(specials), 2)
    rows = []
    for v in sizes:
        m = merges[:v - 256 - len(specials)]
        for lang in langs:
            st = ref.lang_stats(ev[lang], m, specials, form)
            rows.append((v, lang, len(m), st["types"], st["bytes_per_token"], st["fertility"], st["oov_rate"]))
    return files, table_csv(rows)


def main(task):
    env = os.path.join(task, "environment")
    tests = os.path.join(task, "tests")
    for d in (os.path.join(env, "examples"), os.path.join(tests, "examples"), os.path.join(env, "paper", "corpus"),
              os.path.join(tests, "paper"), os.path.join(env, "releases"), os.path.join(tests, "releases")):
        shutil.rmtree(d, ignore_errors=True)
    for i in (1, 2):
        files = example(i)
        put_tree(os.path.join(env, "examples", "example%d" % i), files)
        put_tree(os.path.join(tests, "examples", "example%d" % i), files)
    pf, expected = paper()
    put_tree(os.path.join(env, "paper"), pf)
    put_tree(os.path.join(tests, "paper"), pf)
    with open(os.path.join(tests, "paper_expected.csv"), "wb") as f:
        f.write(expected)
    rf, want = gen.release(random.Random("releases"), 14)
    put_tree(os.path.join(env, "releases"), rf)
    put_tree(os.path.join(tests, "releases"), rf)
    with open(os.path.join(tests, "releases_expected.csv"), "wb") as f:
        f.write(audit_csv(want))
    # The draft table in paper.md: what the shipped (unrepaired) code prints on the paper's corpus.
    out = "/tmp/draft-table.csv"
    subprocess.run([sys.executable, os.path.join(env, "tokctl.py"), "stats", os.path.join(env, "paper", "config.json"), out],
                   check=True)
    with open(out) as f:
        print(f.read())


if __name__ == "__main__":
    main(sys.argv[1])
