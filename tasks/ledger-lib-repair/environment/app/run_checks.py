#!/usr/bin/env python3
"""The package's self-check: runs every ``test_*`` function in ``checks/test_*.py``.

    python3 run_checks.py [-v] [NAME_FILTER]

Exit status 0 when every check passes, 1 otherwise.
"""
import importlib.util
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main(argv):
    verbose = "-v" in argv
    pattern = next((a for a in argv if not a.startswith("-")), "")
    folder = os.path.join(HERE, "checks")
    passed = failed = 0
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("test_") and name.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(folder, name))
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception:
            failed += 1
            print("ERROR %s (import)" % name)
            traceback.print_exc(limit=3)
            continue
        for fn_name in sorted(n for n in dir(module) if n.startswith("test_")):
            if pattern and pattern not in "%s::%s" % (name, fn_name):
                continue
            try:
                getattr(module, fn_name)()
            except Exception:
                failed += 1
                print("FAIL  %s::%s" % (name, fn_name))
                traceback.print_exc(limit=3 if verbose else 1)
            else:
                passed += 1
                if verbose:
                    print("ok    %s::%s" % (name, fn_name))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
