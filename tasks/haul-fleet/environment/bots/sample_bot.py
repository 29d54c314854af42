#!/usr/bin/env python3
"""A naive example bot: each truck walks to the nearest mine (straight-line, no path finding),
mines until full, walks back and unloads. Gets stuck behind rock and ignores everything else."""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from client import Connection, step  # noqa: E402


def towards(x, y, tx, ty):
    if tx != x:
        return "E" if tx > x else "W"
    return "S" if ty > y else "N"


conn = Connection()
game = conn.read_setup()
while True:
    turn = conn.read_turn()
    if turn is None:
        break
    cmds = {}
    for tid, tr in turn.trucks.items():
        if tr.busy:
            continue
        if tr.carried() >= game.capacity or (tr.carried() and all(turn.amounts[m.id] == 0 for m in game.mines.values() if (m.x, m.y) == (tr.x, tr.y))):
            target = game.depot
            if (tr.x, tr.y) == target:
                cmds[tid] = "UNLOAD"
                continue
        else:
            live = [m for m in game.mines.values() if turn.amounts[m.id] > 0]
            if not live:
                continue
            m = min(live, key=lambda m: abs(m.x - tr.x) + abs(m.y - tr.y))
            target = (m.x, m.y)
            if (tr.x, tr.y) == target:
                cmds[tid] = "MINE"
                continue
        d = towards(tr.x, tr.y, target[0], target[1])
        nx, ny = step(tr.x, tr.y, d)
        cmds[tid] = "MOVE " + d if game.passable(nx, ny) else "WAIT"
    conn.send(cmds)
