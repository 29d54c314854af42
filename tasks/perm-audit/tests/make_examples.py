"""Renders the public examples and the shipped fleet (fixed seeds) into environment/ and the
grader's own copies into tests/. Never run at grading time: rerun after a generator change."""
import json, os, random, shutil, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen

TASK = os.path.dirname(HERE)


def write(d, files):
    for name, data in sorted(files.items()):
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def dump(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def examples():
    for base in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        shutil.rmtree(base, ignore_errors=True)
        for name, seed, kind in (("example1", 11, "plain"), ("example2", 12, "sudo")):
            files, info = gen.build(random.Random(seed), kind)
            write(os.path.join(base, name, "snapshot"), files)
            dump(os.path.join(base, name, "expected", "findings.json"),
                 [{"rule": r, "target": t} for r, t in sorted(info["truth"])])
            dump(os.path.join(base, name, "expected", "plan.json"), [gen.action_json(a) for a in info["plan"]])


def fleet():
    hosts, summary = gen.fleet(random.Random(2026), 6)
    env, own = os.path.join(TASK, "environment", "app", "fleet"), os.path.join(HERE, "fleet")
    for d in (env, own):
        shutil.rmtree(d, ignore_errors=True)
    for base in (env, os.path.join(own, "hosts")):
        for h, (files, _) in hosts.items():
            write(os.path.join(base, h), files)
        write(base, {"README.md": b"# Fleet snapshots\n\nOne folder per host, uploaded nightly. `_template/` is the agent's config skeleton.\n",
                     "_template/host.json": b'{"role": "web", "exposure": "internet"}\n',
                     "_template/accepted.txt": b"# rule target  # ticket\n"})
    dump(os.path.join(own, "expected.json"), summary)
    for h, (_, info) in hosts.items():
        dump(os.path.join(own, "plans", h + ".json"), [gen.action_json(a) for a in info["plan"]])


if __name__ == "__main__":
    examples()
    fleet()
