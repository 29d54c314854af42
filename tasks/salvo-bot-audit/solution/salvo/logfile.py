"""Tournament logs: RULES, PLACE, FIRE, CALL and WINNER lines ('#' comments, blank lines)."""
import os

from .coords import parse_cell
from .rules import load_rules


class Entry:
    def __init__(self, lineno, kind, words):
        self.lineno, self.kind, self.words = lineno, kind, words


def read_log(path):
    """(rules, entries); the RULES path is relative to the log's folder."""
    rules, entries = None, []
    with open(path) as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            kind = words[0].upper()
            if kind == "RULES":
                rules = load_rules(os.path.join(os.path.dirname(path), words[1]))
            else:
                entries.append(Entry(n, kind, words[1:]))
    if rules is None:
        raise ValueError("%s: no RULES line" % path)
    return rules, entries


def cells_of(words):
    return [parse_cell(w) for w in words]
