"""The two public examples, made by gen.py from fixed seeds.

`python3 examples.py DIR` writes DIR/{spring,autumn}/: instance.ett, proposal.csv,
expected-audit.csv (judge.audit of the proposal) and, for the optimising autumn instance,
best-penalty.txt (the planted optimum, equal to the per-student lower bound).
"""
import os, random, sys
import gen, judge

SPECS = {"spring": ("audit", True), "autumn": ("optimise", False)}


def make(name):
    kind, heavy = SPECS[name]
    rng = random.Random("public|" + name)
    m, rows = gen.build(rng, kind)
    text = gen.render(m, rng, heavy)
    prop, _ = gen.damage(m, rows, rng)
    return m, rows, text, prop


def model_for(name):
    return make(name)[0]


def write(root):
    for name in SPECS:
        m, rows, text, prop = make(name)
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "instance.ett"), "wb").write(text)
        open(os.path.join(d, "proposal.csv"), "wb").write(gen.rows_csv(prop))
        lines = ["code,subject"] + ["%s,%s" % v for v in sorted(judge.audit(m, prop))]
        open(os.path.join(d, "expected-audit.csv"), "w").write("\n".join(lines) + "\n")
        if m["optimise"]:
            assert judge.back_to_back(m, rows) == judge.lower_bound(m)
            open(os.path.join(d, "best-penalty.txt"), "w").write("%d\n" % judge.lower_bound(m))


if __name__ == "__main__":
    write(sys.argv[1])
