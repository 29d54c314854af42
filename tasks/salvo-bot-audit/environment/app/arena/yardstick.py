"""The reference hunter an episode is measured against: classic hunt-and-target.

Hunt: the cells of one checkerboard colour, from the centre outwards, then the other colour. Target: after a hit, its four
edge neighbours go on a stack; the stack is emptied before hunting again. A salvo takes stack cells
first, then hunt cells. Played in-process against the grader's own Sea."""
from geometry import name
from referee import Sea


def reference_turns(r, fleet):
    """Mean turns of the hunter over its four hunt orders (both checkerboard colours first, ties
    broken top-down or bottom-up): a board-level yardstick less lucky or unlucky than one run."""
    runs = [hunt_and_target(r, fleet, phase, flip) for phase in (0, 1) for flip in (False, True)]
    return sum(runs) / float(len(runs))


def hunt_and_target(r, fleet, phase, flip):
    sea = Sea(r, fleet)
    w, h, board = r["width"], r["height"], sea.board
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    sign = -1 if flip else 1
    order = lambda z: ((int(z.real) + int(z.imag) + phase) % 2, abs(z.real - cx) + abs(z.imag - cy), sign * z.imag, sign * z.real)
    hunt = sorted((complex(x, y) for y in range(h) for x in range(w)), key=order)
    hunt = [z for z in hunt if not board.bit(z) & board.blocked]
    stack, tried, turn = [], 0, 0
    while sea.afloat():
        turn += 1
        picks = []
        k = sea.shots_due()
        while len(picks) < k:
            z = stack.pop() if stack else hunt.pop(0)
            if not board.inside(z):
                continue
            b = board.bit(z)
            if b & (board.blocked | tried):
                continue
            tried |= b
            picks.append(z)
        for z in picks:
            if sea.shoot(name(z)) != "miss":
                stack.extend(z + d for d in (-1j, -1, 1j, 1))
    return turn


def reference_match(r, fleets):
    """The yardstick of a match: the reference hunter's mean turns, summed over its games."""
    return sum(reference_turns(r, f) for f in fleets)
