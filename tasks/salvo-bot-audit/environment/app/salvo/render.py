"""ASCII pictures of a board for `show`: column letters on top, row numbers on the left.

  . open   # blocked   o miss   X hit   and ship letters when a fleet is drawn."""
from .coords import LETTERS


def picture(rules, fleet=(), shots=None):
    """Lines of text. fleet: [(name, cells)] drawn with the first letter of each name (upper case
    for the first ship of that letter, lower case after); shots: {cell: call}."""
    marks = {}
    for cell in rules.blocked:
        marks[cell] = "#"
    for cell in rules.miss:
        marks[cell] = "o"
    for cell in rules.hit:
        marks[cell] = "X"
    used = set()
    for name, cells in fleet:
        ch = name[0].upper()
        if ch in used:
            ch = ch.lower()
        used.add(ch.upper())
        for cell in cells:
            marks[cell] = ch
    for cell, call in (shots or {}).items():
        marks[cell] = "o" if call == "miss" else "X"
    width = len(str(rules.height))
    lines = [" " * (width + 1) + " ".join(LETTERS[c] for c in range(rules.width))]
    for r in range(rules.height):
        row = " ".join(marks.get((c, r), ".") for c in range(rules.width))
        lines.append("%*d %s" % (width, r + 1, row))
    return lines


def summary(rules):
    """One line per rule, as the rules file would say it."""
    out = ["board %dx%d, %d blocked" % (rules.width, rules.height, len(rules.blocked))]
    out += ["%s = %s" % (k, rules.opts[k]) for k in sorted(rules.opts)]
    for name, cells in rules.ships:
        out.append("ship %s: %d cells" % (name, len(cells)))
    return out
