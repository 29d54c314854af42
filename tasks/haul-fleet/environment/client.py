"""Client library for haul bots: parses the engine's line protocol and sends commands.

    from client import Connection, step
    conn = Connection()            # speaks over stdin/stdout
    game = conn.read_setup()       # Game (static description)
    while True:
        turn = conn.read_turn()    # Turn, or None after GAMEOVER
        if turn is None:
            break
        conn.send({0: "MOVE N", 1: "MINE"})
"""
import sys

DIRS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def step(x, y, d):
    """The cell one move in direction d ("N", "E", "S", "W") from (x, y)."""
    dx, dy = DIRS[d]
    return x + dx, y + dy


class Mine:
    def __init__(self, id, x, y, kind, amount, rate):
        self.id, self.x, self.y, self.kind, self.amount, self.rate = id, x, y, kind, amount, rate

    def __repr__(self):
        return "Mine(%d @%d,%d %s amount=%d rate=%d)" % (self.id, self.x, self.y, self.kind, self.amount, self.rate)


class Truck:
    def __init__(self, id, x, y, busy=0, load=None):
        self.id, self.x, self.y, self.busy = id, x, y, busy
        self.load = load if load is not None else {"A": 0, "B": 0, "C": 0}

    def carried(self):
        return sum(self.load.values())

    def __repr__(self):
        return "Truck(%d @%d,%d busy=%d load=%s)" % (self.id, self.x, self.y, self.busy, self.load)


class Game:
    """Everything announced before the first turn."""

    def __init__(self):
        self.width = self.height = 0
        self.rows = []
        self.depot = (0, 0)
        self.capacity = 0
        self.turns = 0
        self.prices = {}
        self.mines = {}
        self.trucks = {}
        self.events = []  # dicts: {"type": "PRICE", "t", "kind", "value"}, {"type": "MINECLOSED", "t0", "t1", "id"}, {"type": "DEPOTCLOSED", "t0", "t1"}

    def cell(self, x, y):
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.rows[y][x]
        return "#"

    def passable(self, x, y):
        return self.cell(x, y) != "#"

    def price(self, kind, t):
        """Price paid per unit of `kind` for an UNLOAD at turn t."""
        p = self.prices[kind]
        for e in sorted((e for e in self.events if e["type"] == "PRICE" and e["kind"] == kind), key=lambda e: e["t"]):
            if e["t"] < t:
                p = e["value"]
        return p

    def mine_closed(self, mine_id, t):
        return any(e["type"] == "MINECLOSED" and e["id"] == mine_id and e["t0"] <= t < e["t1"] for e in self.events)

    def depot_closed(self, t):
        return any(e["type"] == "DEPOTCLOSED" and e["t0"] <= t < e["t1"] for e in self.events)


class Turn:
    def __init__(self):
        self.turn = 0
        self.trucks = {}
        self.amounts = {}
        self.score = 0


class Connection:
    def __init__(self, rfile=None, wfile=None):
        self.rfile = rfile or sys.stdin
        self.wfile = wfile or sys.stdout
        self.final_score = None

    def _line(self):
        line = self.rfile.readline()
        if not line:
            raise EOFError("engine closed the connection")
        return line.split()

    def read_setup(self):
        g = Game()
        while True:
            f = self._line()
            if not f:
                continue
            tag = f[0]
            if tag == "READY":
                return g
            if tag == "SIZE":
                g.width, g.height = int(f[1]), int(f[2])
            elif tag == "ROW":
                g.rows.append(f[1])
            elif tag == "DEPOT":
                g.depot = (int(f[1]), int(f[2]))
            elif tag == "CAPACITY":
                g.capacity = int(f[1])
            elif tag == "TURNS":
                g.turns = int(f[1])
            elif tag == "PRICE":
                g.prices[f[1]] = int(f[2])
            elif tag == "MINE":
                g.mines[int(f[1])] = Mine(int(f[1]), int(f[2]), int(f[3]), f[4], int(f[6]), int(f[5]))
            elif tag == "TRUCK":
                g.trucks[int(f[1])] = Truck(int(f[1]), int(f[2]), int(f[3]))
            elif tag == "EVENT":
                if f[1] == "PRICE":
                    g.events.append({"type": "PRICE", "t": int(f[2]), "kind": f[3], "value": int(f[4])})
                elif f[1] == "MINECLOSED":
                    g.events.append({"type": "MINECLOSED", "t0": int(f[2]), "t1": int(f[3]), "id": int(f[4])})
                elif f[1] == "DEPOTCLOSED":
                    g.events.append({"type": "DEPOTCLOSED", "t0": int(f[2]), "t1": int(f[3])})

    def read_turn(self):
        """The next turn's state, or None once the engine says GAMEOVER (final_score is then set)."""
        t = Turn()
        while True:
            f = self._line()
            if not f:
                continue
            tag = f[0]
            if tag == "GAMEOVER":
                self.final_score = int(f[1])
                return None
            if tag == "GO":
                return t
            if tag == "TURN":
                t.turn = int(f[1])
            elif tag == "TRUCK":
                t.trucks[int(f[1])] = Truck(int(f[1]), int(f[2]), int(f[3]), int(f[4]), {"A": int(f[5]), "B": int(f[6]), "C": int(f[7])})
            elif tag == "MINE":
                t.amounts[int(f[1])] = int(f[2])
            elif tag == "SCORE":
                t.score = int(f[1])

    def send(self, commands):
        """commands: {truck id: "MOVE N" | "MINE" | "UNLOAD" | "WAIT"}; ends the turn."""
        out = "".join("%d %s\n" % (tid, c) for tid, c in sorted(commands.items()))
        self.wfile.write(out + "DONE\n")
        self.wfile.flush()
