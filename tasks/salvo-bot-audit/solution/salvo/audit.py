"""`audit LOGDIR OUT.csv`: every rule violation in recorded tournament logs."""
import csv
import os

from .board import halo, is_orientation
from .game import PLAYERS, Game
from .logfile import cells_of, read_log


def audit_log(path):
    rules, entries = read_log(path)
    game = Game(rules)
    found = []
    placed = {p: [] for p in PLAYERS}
    pending = None          # calls of the last counted FIRE, checked against the next CALL line
    for e in entries:
        if e.kind == "PLACE":
            player, name, cells = e.words[0], e.words[1], frozenset(cells_of(e.words[2:]))
            shape = rules.ship_shape(name)
            ok = player in PLAYERS and shape is not None and is_orientation(rules, shape, cells)
            if ok:
                for other_name, other in placed[player]:
                    if other_name == name or other & halo(rules, cells):
                        ok = False
            if not ok:
                found.append((e.lineno, "ILLEGAL_PLACEMENT"))
            if player in PLAYERS and shape is not None:
                placed[player].append((name, cells))
                game.fleets[player].add(name, cells)
        elif e.kind == "FIRE":
            player, cells = e.words[0], cells_of(e.words[1:])
            if game.over() or player != game.to_move:
                found.append((e.lineno, "OUT_OF_TURN"))
                pending = None
                continue
            if len(cells) != game.salvo_size(player):
                found.append((e.lineno, "WRONG_SALVO"))
            pending = game.fire(player, cells)
        elif e.kind == "CALL":
            if pending is not None and e.words != pending:
                found.append((e.lineno, "WRONG_CALL"))
            pending = None
        elif e.kind == "WINNER":
            if e.words[:1] != [game.winner or "none"]:
                found.append((e.lineno, "WRONG_WINNER"))
    return found


def audit_dir(logdir, out):
    rows = []
    for fn in sorted(os.listdir(logdir)):
        if fn.endswith(".log"):
            for lineno, code in audit_log(os.path.join(logdir, fn)):
                rows.append((fn[:-4], lineno, code))
    rows.sort()
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["log", "line", "code"])
        w.writerows(rows)
