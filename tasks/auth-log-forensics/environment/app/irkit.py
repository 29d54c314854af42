#!/usr/bin/env python3
"""irkit command line.

    python3 irkit.py sessions HOST_DIR OUT.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from irkit import events, report, sessions, sources  # noqa: E402
from irkit.hostinfo import HostInfo  # noqa: E402


def main(argv):
    if len(argv) == 4 and argv[1] in ("timeline", "alerts"):
        sys.stderr.write("irkit: %s is not implemented yet\n" % argv[1])
        return 3
    if len(argv) != 4 or argv[1] not in ("sessions",):
        sys.stderr.write(__doc__)
        return 2
    cmd, folder, out = argv[1], argv[2], argv[3]
    info = HostInfo(folder)
    evs = events.events(sources.load(info))
    report.write(out, ("login_line", "user", "source", "port", "method", "start", "end", "close_line"),
                 report.session_rows(sessions.build(evs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
