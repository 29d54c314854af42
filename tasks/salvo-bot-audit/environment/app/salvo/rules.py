"""The rules file: `key = value` lines, '#' comments.

board = 10x8            columns x rows
blocked = C3 D7         cells no ship may use (optional)
rotate = no|yes|mirror
touch = yes|edge|corner
salvo = no|yes
sunk = named|plain|silent
ship NAME = SHAPE       one line per ship, in fleet order
miss = ... / hit = ...  known shots (only read by `count`)
"""
from .coords import parse_cell
from .shapes import parse_shape

CHOICES = {"rotate": ("no", "yes", "mirror"), "touch": ("yes", "edge", "corner"),
           "salvo": ("no", "yes"), "sunk": ("named", "plain", "silent")}
DEFAULTS = {"rotate": "yes", "touch": "yes", "salvo": "no", "sunk": "named"}


class Rules:
    def __init__(self):
        self.width = self.height = 0
        self.blocked = set()
        self.ships = []          # [(name, cells)]
        self.miss = set()
        self.hit = set()
        self.opts = dict(DEFAULTS)

    def __getattr__(self, key):
        opts = self.__dict__.get("opts", {})
        if key in opts:
            return opts[key]
        raise AttributeError(key)

    def on_board(self, cell):
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def cells(self):
        return [(c, r) for r in range(self.height) for c in range(self.width)]

    def ship_shape(self, name):
        for n, cells in self.ships:
            if n == name:
                return cells
        return None


def parse_rules_text(text):
    rules = Rules()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError("bad rules line %r" % raw)
        key, value = key.strip(), value.strip()
        if key == "board":
            w, h = value.lower().split("x")
            rules.height, rules.width = int(w), int(h)
        elif key in ("blocked", "miss", "hit"):
            getattr(rules, key).update(parse_cell(v) for v in value.split())
        elif key in CHOICES:
            if value not in CHOICES[key]:
                raise ValueError("%s must be one of %s" % (key, "/".join(CHOICES[key])))
            rules.opts[key] = value
        elif key.startswith("ship "):
            rules.ships.append((key[5:].strip(), parse_shape(value)))
        else:
            raise ValueError("unknown rules key %r" % key)
    if not (rules.width and rules.height and rules.ships):
        raise ValueError("rules need a board and at least one ship")
    return rules


def load_rules(path):
    with open(path) as fh:
        return parse_rules_text(fh.read())
