"""`count RULES`: placements per ship, and whole-fleet placements on small boards."""
from .board import halo, placements

FLEET_LIMIT = 36  # fleet placements are counted only on boards of at most this many cells


def ship_counts(rules):
    return [(name, len(placements(rules, shape, rules.miss))) for name, shape in rules.ships]


def fleet_count(rules):
    options = [placements(rules, shape, rules.miss) for _, shape in rules.ships]
    hits = frozenset(rules.hit)
    total = 0

    def walk(i, used, banned):
        nonlocal total
        if i == len(options):
            if hits & used:
                total += 1
            return
        for cells in options[i]:
            if cells & banned:
                continue
            walk(i + 1, used | cells, banned | halo(rules, cells))

    walk(0, frozenset(), frozenset())
    return total


def count_lines(rules):
    lines = ["%s %d" % nc for nc in ship_counts(rules)]
    if rules.width * rules.height <= FLEET_LIMIT:
        lines.append("fleet %d" % fleet_count(rules))
    else:
        lines.append("fleet skipped")
    return lines
