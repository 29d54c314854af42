"""Renders the public examples, the paper's logits and the shipped release (run by the author
after a generator change; never run at grading time).

    python3 tests/make_examples.py TASK_DIR
"""
import json
import os
import random
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import ref  # noqa: E402


def put_tree(root, files):
    for rel, data in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())


def table_csv(files):
    out = ["model,dataset,n_test,accuracy,temperature,ece_before,ece_after,ace_before,ace_after,"
           "cwece_before,cwece_after,nll_before,nll_after,brier_before,brier_after"]
    for e in gen.expected_table(files):
        t = round(e["temperature"], 4)
        b = ref.metrics(e["labels"], e["logits"], e["bins"], 1.0)
        a = ref.metrics(e["labels"], e["logits"], e["bins"], t)
        cells = [e["model"], e["dataset"], str(e["n_test"]), "%.6f" % b["accuracy"], "%.4f" % t]
        for m in ("ece", "ace", "cwece", "nll", "brier"):
            cells += ["%.6f" % b[m], "%.6f" % a[m]]
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def audit_csv(want):
    out = "claim,verdict,reasons\n"
    for name in sorted(want):
        out += "%s,%s,%s\n" % (name, "fail" if want[name] else "pass", ";".join(want[name]))
    return out


def example(seed):
    rng = random.Random("example/%d" % seed)
    files = {}
    text, args = gen.metrics_case(rng, ("saturated", "offset")[seed - 1])
    files["metrics/logits.csv"] = text
    files["metrics/args.json"] = json.dumps(args) + "\n"
    files["metrics/expected.json"] = json.dumps(gen.expected_metrics(text, args), indent=1) + "\n"
    text = gen.model_file(rng, ("hot", "clamp")[seed - 1])
    files["fit/logits.csv"] = text
    files["fit/expected.json"] = json.dumps(gen.expected_fit(text), indent=1) + "\n"
    pf = gen.paper(rng, 3, [("offset", "plain", "missing"), ("under", "saturated", "plain")][seed - 1])
    for k, v in pf.items():
        files["table/paper/" + k] = v
    files["table/expected.csv"] = table_csv(pf)
    rf, want = gen.release(rng, 8)
    for k, v in rf.items():
        files["audit/release/" + k] = v
    files["audit/expected.csv"] = audit_csv(want)
    return files


def main(task):
    env, tests = os.path.join(task, "environment"), os.path.join(task, "tests")
    draft = None
    if os.path.exists(os.path.join(env, "paper", "paper.md")):  # the draft is written by hand
        with open(os.path.join(env, "paper", "paper.md"), "rb") as f:
            draft = f.read()
    for sub in ("examples", "paper", "release"):
        for base in (env, tests):
            shutil.rmtree(os.path.join(base, sub), ignore_errors=True)
    for seed in (1, 2):
        put_tree(os.path.join(env, "examples", "example%d" % seed), example(seed))
    rng = random.Random("paper")
    pf = gen.paper(rng, 6, ["plain", "saturated", "under", "missing", "plain", "hot"])
    if draft is not None:
        pf["paper.md"] = draft
    put_tree(os.path.join(env, "paper"), pf)
    rng = random.Random("release")
    rf, want = gen.release(rng, 14)
    put_tree(os.path.join(env, "release"), rf)
    with open(os.path.join(tests, "release_expected.csv"), "w") as f:
        f.write(audit_csv(want))
    with open(os.path.join(tests, "paper_expected.csv"), "w") as f:
        f.write(table_csv({k: v for k, v in pf.items() if k != "paper.md"}))
    shutil.copytree(os.path.join(env, "examples"), os.path.join(tests, "examples"))
    shutil.copytree(os.path.join(env, "paper"), os.path.join(tests, "paper"))
    shutil.copytree(os.path.join(env, "release"), os.path.join(tests, "release"))


if __name__ == "__main__":
    main(sys.argv[1])
