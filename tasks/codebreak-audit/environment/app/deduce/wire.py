"""Line protocol client for the codebreak referee."""
import sys


class ProtocolError(Exception):
    pass


class Link:
    def __init__(self, rd=sys.stdin, wr=sys.stdout):
        self.rd, self.wr = rd, wr

    def _line(self):
        line = self.rd.readline()
        if not line:
            raise ProtocolError("referee hung up")
        return line.strip()

    def hello(self):
        """Reads the GAME line; returns dict(pegs, colors, repeat, budget)."""
        line = self._line()
        if line.startswith("INFO"):
            line = self._line()
        if not line.startswith("GAME "):
            raise ProtocolError("expected GAME, got %r" % line)
        fields = dict(part.split("=", 1) for part in line.split()[1:])
        return dict(pegs=int(fields["pegs"]), colors=fields["colors"], repeat=fields["repeat"] == "yes",
                    budget=int(fields["budget"]))

    def guess(self, code):
        print(code, file=self.wr)

    def reply(self):
        """Returns ("score", exact, near), ("solved", turn) or ("over", secret)."""
        line = self._line()
        word, _, rest = line.partition(" ")
        if word == "SCORE":
            near, exact = (int(x) for x in rest.split())
            return ("score", exact, near)
        if word == "SOLVED":
            return ("solved", int(rest))
        if word == "OVER":
            return ("over", rest.split("=", 1)[1])
        raise ProtocolError("unexpected line %r" % line)
