"""Runs a plan (SPEC section 7): commands, state updates, keep-going."""
import subprocess
import sys
import time

from . import state as st
from .plan import hashed_inputs


def build(plan, statefile, keep_going, out=sys.stdout):
    g = plan.graph
    targets = dict(plan.state)
    failed = set()
    out.write("# minibuild log\n# goals: %s\n# keep_going: %s\n" % (" ".join(plan.goals), "yes" if keep_going else "no"))
    stopped = False
    for name in plan.dirty:
        if stopped:
            break
        node = g.nodes[name]
        out.write("run %s\n" % name)
        out.flush()
        inputs = {p: st.file_hash(plan.path(p)) for p in hashed_inputs(g, node)}
        ok = True
        for cmd in node.commands:
            r = subprocess.run(["/bin/sh", "-c", cmd], cwd=plan.root, stdout=sys.stderr, stderr=sys.stderr)
            if r.returncode != 0:
                ok = False
                break
        output = None if node.phony else st.file_hash(plan.path(name))
        if ok and not node.phony and output is None:
            ok = False
        if not node.phony:
            targets[name] = {
                "ok": True,
                "command": st.command_hash(node.commands),
                "inputs": inputs,
                "output": output if ok else None,
                "built_at": time.time(),
            }
        out.write("%s %s\n" % ("ok" if ok else "fail", name))
        if not ok:
            failed.add(name)
            stopped = not keep_going
    st.save(statefile, targets)
    return 1 if failed else 0
