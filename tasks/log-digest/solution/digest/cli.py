"""Command line: `logdigest.py INPUT_DIR -o OUT.json [--since T] [--until T]` and
`logdigest.py audit INPUT_DIR CLAIMS.json -o OUT.csv [--since T] [--until T]`."""
import argparse
import sys

from .report import build, write
from .timeutil import TimeError, parse_bound


def _window(p):
    p.add_argument("--since")
    p.add_argument("--until")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "audit":
        p = argparse.ArgumentParser(prog="logdigest.py audit")
        p.add_argument("input_dir")
        p.add_argument("claims")
        p.add_argument("-o", "--output", required=True)
        _window(p)
        a = p.parse_args(argv[1:])
        mode = "audit"
    else:
        p = argparse.ArgumentParser(prog="logdigest.py")
        p.add_argument("input_dir")
        p.add_argument("-o", "--output", required=True)
        _window(p)
        a = p.parse_args(argv)
        mode = "digest"
    try:
        since, until = parse_bound(a.since), parse_bound(a.until)
    except TimeError as e:
        p.error("bad window bound: %s" % e)
    if mode == "audit":
        from .audit import audit
        audit(a.input_dir, a.claims, a.output, since, until)
    else:
        write(build(a.input_dir, since, until), a.output)
    return 0
