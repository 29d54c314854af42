#!/usr/bin/env python3
"""minibuild command line: plan, explain, build, audit (see /app/docs/SPEC.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from buildcore import BuildError  # noqa: E402
from buildcore.audit import audit  # noqa: E402
from buildcore.plan import Plan  # noqa: E402
from buildcore.runner import build  # noqa: E402

USAGE = """usage:
  minibuild.py plan    BUILDFILE STATE [TARGET...]
  minibuild.py explain BUILDFILE STATE [TARGET...]
  minibuild.py build   BUILDFILE STATE [-k] [TARGET...]
  minibuild.py audit   CASE_DIR
"""


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(USAGE)
        return 2
    cmd = argv[0]
    try:
        if cmd == "audit":
            sys.stdout.write(audit(argv[1]))
            return 0
        if len(argv) < 3:
            sys.stderr.write(USAGE)
            return 2
        rest = argv[3:]
        keep_going = "-k" in rest
        goals = [a for a in rest if a != "-k"]
        plan = Plan(argv[1], argv[2], goals)
        if cmd == "plan":
            for name in plan.dirty:
                for line in plan.graph.nodes[name].commands:
                    sys.stdout.write(line + "\n")
            return 0
        if cmd == "explain":
            for name in plan.order:
                sys.stdout.write("%s %s\n" % (name, plan.reasons[name]))
            return 0
        if cmd == "build":
            return build(plan, argv[2], keep_going)
    except BuildError as e:
        sys.stdout.write("error: %s\n" % e)
        return 2
    sys.stderr.write(USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
