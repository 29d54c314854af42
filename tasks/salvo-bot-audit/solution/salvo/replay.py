"""`replay LOG`: the true salvo size and calls of every counted FIRE, and the winner."""
from .game import PLAYERS, Game
from .logfile import cells_of, read_log


def replay_lines(path):
    rules, entries = read_log(path)
    game = Game(rules)
    out, k = [], 0
    for e in entries:
        if e.kind == "PLACE":
            player, name = e.words[0], e.words[1]
            if player in PLAYERS and rules.ship_shape(name) is not None:
                game.fleets[player].add(name, cells_of(e.words[2:]))
        elif e.kind == "FIRE":
            player = e.words[0]
            if game.over() or player != game.to_move:
                continue
            k += 1
            size = game.salvo_size(player)
            calls = game.fire(player, cells_of(e.words[1:]))
            out.append("%d %s %d %s" % (k, player, size, " ".join(calls)))
    out.append("winner %s" % (game.winner or "none"))
    return out
