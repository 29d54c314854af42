"""Audits a recorded build log against the plan (SPEC section 8)."""
import os

from .plan import Plan


def read_log(path):
    goals, keep_going, ran, failed = [], False, [], set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# goals:"):
                goals = line[len("# goals:"):].split()
            elif line.startswith("# keep_going:"):
                keep_going = line.split(":", 1)[1].strip() == "yes"
            elif line.startswith("run "):
                ran.append(line[4:].strip())
            elif line.startswith("fail "):
                failed.add(line[5:].strip())
    return goals, keep_going, ran, failed


def audit(case_dir):
    goals, keep_going, ran, failed_log = read_log(os.path.join(case_dir, "build.log"))
    plan = Plan(os.path.join(case_dir, "Buildfile"), os.path.join(case_dir, "state.json"), goals)
    g = plan.graph
    expected, blocked, failed = [], set(), set()
    stopped = False
    for name in plan.dirty:
        if stopped or (keep_going and (g.deps_closure(name) & (failed | blocked))):
            blocked.add(name)
            continue
        expected.append(name)
        if name in failed_log:
            failed.add(name)
            if not keep_going:
                stopped = True
    rows = {}
    ran_set = set(ran)
    for name in ran_set:
        if name in expected:
            rows[name] = ("necessary", plan.reasons[name])
        elif name in blocked:
            rows[name] = ("unnecessary", "blocked")
        elif name in g.nodes:
            rows[name] = ("unnecessary", "up_to_date")
        else:
            rows[name] = ("unnecessary", "not_in_goal")
    for name in expected:
        if name not in ran_set:
            rows[name] = ("missing", plan.reasons[name])
    lines = ["target,verdict,reason"]
    for name in sorted(rows):
        lines.append("%s,%s,%s" % (name, rows[name][0], rows[name][1]))
    return "\n".join(lines) + "\n"
