#!/usr/bin/env python3
"""Regenerates the public examples (environment/examples and its byte copy tests/examples) from
fixed seeds with the grader's own casebook. Run from the task folder: python3 tests/make_examples.py"""
import os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import casebook  # noqa: E402

OUT = os.path.join(HERE, "..", "environment", "examples")


def write(rel, text):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for stem, seed, small, force, dims in [
        ("harbour", "pub-1", True, dict(rotate="yes", touch="edge"), (6, 5)),
        ("strait", "pub-2", False, dict(rotate="yes", touch="corner"), (10, 8)),
    ]:
        text, want = casebook.count_case(seed, small, force, dims)
        write("count/%s.rules" % stem, text)
        write("count/%s.out" % stem, "\n".join(want) + "\n")
    rows = []
    for stem, plant, force, dims in [
        ("m1", set(), dict(salvo="no", sunk="named", rotate="yes"), (9, 8)),
        ("m2", set(), dict(salvo="yes", sunk="plain", rotate="no"), (8, 9)),
        ("m3", {"placement", "call", "winner"}, dict(salvo="no", sunk="named", rotate="yes", touch="edge"), (9, 9)),
        ("m4", {"out_of_turn", "salvo", "after_end"}, dict(salvo="yes", sunk="named", rotate="yes"), (7, 9)),
    ]:
        rules_name, rules_text, log, replay, found = casebook.build_game("pub-" + stem, plant, force, 0.0, dims)
        write("logs/" + rules_name, rules_text)
        write("logs/%s.log" % stem, log)
        if not plant:
            write("logs/%s.replay" % stem, "\n".join(replay) + "\n")
        rows += [(stem, n, code) for n, code in found]
    write("audit.csv", "log,line,code\n" + "".join("%s,%d,%s\n" % r for r in sorted(rows)))
    dst = os.path.join(HERE, "examples")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(OUT, dst)


if __name__ == "__main__":
    main()
