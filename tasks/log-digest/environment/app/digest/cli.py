"""Command line: `logdigest.py INPUT_DIR -o OUT.json [--since T] [--until T]`."""
import argparse
import sys

from .report import build, write
from .timeutil import TimeError, parse_bound


def _window(p):
    p.add_argument("--since")
    p.add_argument("--until")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(prog="logdigest.py")
    p.add_argument("input_dir")
    p.add_argument("-o", "--output", required=True)
    _window(p)
    a = p.parse_args(argv)
    try:
        since, until = parse_bound(a.since), parse_bound(a.until)
    except TimeError as e:
        p.error("bad window bound: %s" % e)
    write(build(a.input_dir, since, until), a.output)
    return 0
