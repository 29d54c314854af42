#!/usr/bin/env python3
"""salvo command line: count RULES / replay LOG / play RULES / show RULES"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from salvo.rules import load_rules  # noqa: E402


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd = argv[0]
    if cmd == "count":
        from salvo.count import count_lines
        print("\n".join(count_lines(load_rules(argv[1]))))
    elif cmd == "show":
        from salvo.render import picture, summary
        rules = load_rules(argv[1])
        print("\n".join(summary(rules) + picture(rules)))
    elif cmd == "replay":
        from salvo.replay import replay_lines
        print("\n".join(replay_lines(argv[1])))
    elif cmd == "play":
        from salvo.client import Client
        from salvo.bot import play
        play(load_rules(argv[1]), Client())
    else:
        sys.exit("unknown command %r" % cmd)


if __name__ == "__main__":
    main(sys.argv[1:])
