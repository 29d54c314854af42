"""Referee protocol client for `play`.

Referee lines: HELLO salvo 1 games=N / GAME g / TURN t k / RESULT cell call cell call ... /
NOTE text / WON t / LOST why / BYE.   Bot lines: FIRE cell cell ... (exactly k cells).
"""
import sys

from .coords import cell_name, parse_cell


class Client:
    def __init__(self, rfile=None, wfile=None):
        self.rfile = rfile or sys.stdin
        self.wfile = wfile or sys.stdout

    def _words(self):
        while True:
            line = self.rfile.readline()
            if not line:
                return None
            words = line.split()
            if not words or words[0] in ("NOTE", "HELLO"):
                continue
            return words

    def next_event(self):
        """('game', g) / ('turn', t, k) / ('won', t) / ('end', why): LOST, BYE or end of input."""
        words = self._words()
        if words is None:
            return ("end", "EOF")
        if words[0] == "GAME":
            return ("game", int(words[1]))
        if words[0] == "TURN":
            return ("turn", int(words[1]), int(words[2]))
        if words[0] == "WON":
            return ("won", int(words[1]))
        return ("end", " ".join(words))

    def fire(self, cells):
        """Send one salvo; returns [(cell, call)] in the order fired."""
        self.wfile.write("FIRE " + " ".join(cell_name(c) for c in cells) + "\n")
        self.wfile.flush()
        words = self._words()
        if words is None or words[0] != "RESULT":
            raise EOFError("no RESULT: %r" % (words,))
        pairs = words[1:]
        return [(parse_cell(pairs[i]), pairs[i + 1]) for i in range(0, len(pairs), 2)]
