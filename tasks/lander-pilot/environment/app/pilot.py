#!/usr/bin/env python3
"""Pad-landing autopilot (docs/FLIGHT.md).

  python3 /app/pilot.py                      fly one episode over stdin/stdout (the simulator starts it)
"""
import os
import sys

# The `flight` package sits beside this file in /app. A wrapper may run this file from another
# folder, so the working folder and /app are tried too.
for _d in (os.path.dirname(os.path.abspath(__file__)), os.getcwd(), "/app"):
    if os.path.isdir(os.path.join(_d, "flight")):
        sys.path.insert(0, _d)
        break

from flight.autopilot import fly  # noqa: E402


def main(argv):
    if argv and argv[0] == "audit":
        print("pilot.py: audit is not implemented yet (docs/FLIGHT.md §8)", file=sys.stderr)
        return 2
    fly()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
