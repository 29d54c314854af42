"""Writes the shipped study, run logs and public examples (run once by the author; not graded).

    python3 tests/build_public.py TASK_DIR
"""
import csv, io, json, os, random, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen

STUDY_CONFIGS = [
    {"name": "knn1_raw", "model": "knn", "k": 1, "scale": False},
    {"name": "knn1_std", "model": "knn", "k": 1, "scale": True},
    {"name": "knn5_std", "model": "knn", "k": 5, "scale": True},
    {"name": "knn5_std_sel3", "model": "knn", "k": 5, "scale": True, "select": 3},
    {"name": "gnb_raw", "model": "gnb", "scale": False},
    {"name": "gnb_sel2", "model": "gnb", "scale": False, "select": 2},
]


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def table_csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["config", "accuracy", "macro_f1"])
    for name, acc, f1 in rows:
        w.writerow([name, "%.4f" % acc, "%.4f" % f1])
    return out.getvalue()


def audit_csv(expected):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["run_id", "verdict", "reasons"])
    for rid in sorted(expected):
        w.writerow([rid, "fail" if expected[rid] else "pass", ";".join(expected[rid])])
    return out.getvalue()


def study_with(rng, configs, tokens, kind="audit"):
    for _ in range(40):
        text, spec, post = gen.draw_study(rng, kind, tokens)
        spec["configs"] = configs or spec["configs"]
        rows, low = gen.expected_table(text, spec)
        if low > gen.MARGIN:
            return text, spec, post, rows
    raise RuntimeError("no clear study")


def main(task):
    env, tests = os.path.join(task, "environment"), os.path.join(task, "tests")
    rng = random.Random("leakage-ablation/study")
    text, spec, post, rows = study_with(rng, STUDY_CONFIGS, ("", "NA"))
    put(os.path.join(env, "data/study/data.csv"), text)
    put(os.path.join(env, "data/study/configs.json"), json.dumps(spec, indent=1) + "\n")
    files, expected = gen.run_logs(rng, text, spec, post, n_logs=10)
    shutil.rmtree(os.path.join(env, "runs"), ignore_errors=True)
    for name, data in files:
        put(os.path.join(env, "runs", name), data)
    print("study", rows, expected)
    for ex, tokens, kind in (("example1", ("", "NA"), "audit"), ("example2", ("", "NA", "?"), "groups")):
        r = random.Random("leakage-ablation/" + ex)
        text, spec, post, rows = study_with(r, None, tokens, kind)
        files, expected = gen.run_logs(r, text, spec, post, n_logs=7)
        for root in (env, tests):
            base = os.path.join(root, "examples", ex)
            shutil.rmtree(base, ignore_errors=True)
            put(os.path.join(base, "input/data.csv"), text)
            put(os.path.join(base, "input/configs.json"), json.dumps(spec, indent=1) + "\n")
            for name, data in files:
                put(os.path.join(base, "input/runs", name), data)
            put(os.path.join(base, "expected/ablation.csv"), table_csv(rows))
            put(os.path.join(base, "expected/audit.csv"), audit_csv(expected))
        print(ex, rows, expected)


if __name__ == "__main__":
    main(sys.argv[1])
