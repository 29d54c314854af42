"""Turn resolution for the haul engine. The authority on every rule; RULES.md is the summary."""
DIRS = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
MUD_EXTRA = 2  # entering mud keeps the truck busy this many further turns


class Game:
    def __init__(self, world):
        self.world = world
        self.rows = world["rows"]
        self.turns = world["turns"]
        self.capacity = world["capacity"]
        self.depot = tuple(world["depot"])
        self.prices = dict(world["prices"])
        self.mines = {m["id"]: dict(m) for m in world["mines"]}
        self.mine_at = {(m["x"], m["y"]): m["id"] for m in world["mines"]}
        self.trucks = {t["id"]: dict(id=t["id"], x=t["x"], y=t["y"], busy=0, load={"A": 0, "B": 0, "C": 0}) for t in world["trucks"]}
        self.events = world["events"]
        self.score = 0
        self.turn = 0

    # ---- setup and state text (the protocol) ----
    def setup_lines(self):
        w = self.world
        out = ["HAUL 1", "SIZE %d %d" % (w["width"], w["height"])]
        out += ["ROW " + r for r in self.rows]
        out.append("DEPOT %d %d" % self.depot)
        out.append("CAPACITY %d" % self.capacity)
        out.append("TURNS %d" % self.turns)
        for k in sorted(w["prices"]):
            out.append("PRICE %s %d" % (k, w["prices"][k]))
        for m in w["mines"]:
            out.append("MINE %d %d %d %s %d %d" % (m["id"], m["x"], m["y"], m["kind"], m["amount"], m["rate"]))
        for t in w["trucks"]:
            out.append("TRUCK %d %d %d" % (t["id"], t["x"], t["y"]))
        for e in self.events:
            if e["type"] == "PRICE":
                out.append("EVENT PRICE %d %s %d" % (e["t"], e["kind"], e["value"]))
            elif e["type"] == "MINECLOSED":
                out.append("EVENT MINECLOSED %d %d %d" % (e["t0"], e["t1"], e["id"]))
            else:
                out.append("EVENT DEPOTCLOSED %d %d" % (e["t0"], e["t1"]))
        out.append("READY")
        return out

    def state_lines(self):
        out = ["TURN %d" % self.turn]
        for i in sorted(self.trucks):
            t = self.trucks[i]
            out.append("TRUCK %d %d %d %d %d %d %d" % (i, t["x"], t["y"], t["busy"], t["load"]["A"], t["load"]["B"], t["load"]["C"]))
        for i in sorted(self.mines):
            out.append("MINE %d %d" % (i, self.mines[i]["amount"]))
        out.append("SCORE %d" % self.score)
        out.append("GO")
        return out

    # ---- rules ----
    def mine_closed(self, mid, t):
        return any(e["type"] == "MINECLOSED" and e["id"] == mid and e["t0"] <= t <= e["t1"] for e in self.events)

    def depot_closed(self, t):
        return any(e["type"] == "DEPOTCLOSED" and e["t0"] <= t <= e["t1"] for e in self.events)

    def passable(self, x, y):
        return 0 <= y < len(self.rows) and 0 <= x < len(self.rows[0]) and self.rows[y][x] != "#"

    def play_turn(self, commands):
        """Resolve one turn. commands: {truck id: "MOVE N" | "MINE" | "UNLOAD" | "WAIT"}."""
        t = self.turn
        for e in self.events:
            if e["type"] == "PRICE" and e["t"] == t:
                self.prices[e["kind"]] = e["value"]
        for i in sorted(self.trucks):
            tr = self.trucks[i]
            if tr["busy"] > 0:
                tr["busy"] -= 1
                continue
            words = str(commands.get(i, "WAIT")).split()
            op = words[0].upper() if words else "WAIT"
            if op == "MOVE" and len(words) == 2 and words[1].upper() in DIRS:
                dx, dy = DIRS[words[1].upper()]
                nx, ny = tr["x"] + dx, tr["y"] + dy
                if self.passable(nx, ny):
                    tr["x"], tr["y"] = nx, ny
                    if self.rows[ny][nx] == "~":
                        tr["busy"] = MUD_EXTRA
            elif op == "MINE":
                mid = self.mine_at.get((tr["x"], tr["y"]))
                if mid is not None and not self.mine_closed(mid, t):
                    m = self.mines[mid]
                    room = self.capacity - sum(tr["load"].values())
                    q = max(0, min(m["rate"], m["amount"], room))
                    m["amount"] -= q
                    tr["load"][m["kind"]] += q
            elif op == "UNLOAD":
                if (tr["x"], tr["y"]) == self.depot and not self.depot_closed(t):
                    self.score += sum(tr["load"][k] * self.prices[k] for k in tr["load"])
                    tr["load"] = {"A": 0, "B": 0, "C": 0}
        self.turn += 1

    def over(self):
        return self.turn >= self.turns
