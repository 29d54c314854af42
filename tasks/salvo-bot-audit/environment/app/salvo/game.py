"""Two-player bookkeeping: placements, turn order, salvo sizes, calls and the winner."""
from .fleet import Fleet

PLAYERS = ("A", "B")


class Game:
    def __init__(self, rules):
        self.rules = rules
        self.fleets = {p: Fleet(rules) for p in PLAYERS}
        self.to_move = "A"
        self.winner = None

    def other(self, player):
        return "B" if player == "A" else "A"

    def salvo_size(self, player):
        """Shots the player must fire this turn: 1, or in salvo mode its ships still afloat."""
        if self.rules.salvo == "no":
            return 1
        return self.fleets[self.other(player)].afloat()

    def over(self):
        return self.winner is not None

    def fire(self, player, cells):
        """Apply a counted FIRE; returns the calls."""
        target = self.fleets[self.other(player)]
        calls = [target.shoot(c) for c in cells]
        if target.defeated():
            self.winner = player
        self.to_move = self.other(player)
        return calls
