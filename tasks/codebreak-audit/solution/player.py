#!/usr/bin/env python3
"""Codebreak player: one episode over stdin/stdout with the referee."""
import itertools, random, sys


def read_line():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def header_fields(line):
    out = {}
    for part in line.split()[1:]:
        key, _, value = part.partition("=")
        out[key] = value
    return out


def next_message():
    """The next line that is not chatter; PINGs are answered on the way."""
    while True:
        line = read_line()
        if not line:
            continue
        word = line.split()[0]
        if word == "INFO":
            continue
        if word == "PING":
            send("PONG " + line.split()[1])
            continue
        return line


class Space:
    def __init__(self, pegs, palette, repeat):
        self.pegs, self.palette, self.n = pegs, palette, len(palette)
        if repeat:
            codes = itertools.product(range(self.n), repeat=pegs)
        else:
            codes = itertools.permutations(range(self.n), pegs)
        self.codes = [tuple(c) for c in codes]
        self.counts = {c: self.histogram(c) for c in self.codes}

    def histogram(self, code):
        h = [0] * self.n
        for x in code:
            h[x] += 1
        return h

    def feedback(self, a, b, hb=None):
        ha = self.counts.get(a) or self.histogram(a)
        hb = hb or self.counts.get(b) or self.histogram(b)
        common = 0
        for x, y in zip(ha, hb):
            common += x if x < y else y
        hits = 0
        for x, y in zip(a, b):
            if x == y:
                hits += 1
        return hits, common - hits

    def text(self, code):
        return "".join(self.palette[i] for i in code)

    def parse(self, text):
        return tuple(self.palette.index(ch) for ch in text)


def spread(space, guess, cands):
    hg = space.counts.get(guess) or space.histogram(guess)
    parts = {}
    for c in cands:
        k = space.feedback(c, guess, hg)
        parts[k] = parts.get(k, 0) + 1
    return sum(v * v for v in parts.values()), max(parts.values())


def choose(space, cands, rng):
    if len(cands) <= 2:
        return cands[0]
    pool = cands if len(cands) <= 40 else rng.sample(cands, 40)
    probe = cands if len(cands) <= 400 else rng.sample(cands, 400)
    extra = [] if len(cands) > 200 else rng.sample(space.codes, min(40, len(space.codes)))
    best, best_key = None, None
    live = set(cands)
    for g in list(pool) + extra:
        sq, worst = spread(space, g, probe)
        key = (sq, worst, 0 if g in live else 1)
        if best_key is None or key < best_key:
            best, best_key = g, key
    return best


def opening(space, repeat):
    if repeat and space.n >= 3:
        first = [0, 0, 1, 1, 2][: space.pegs]
        while len(first) < space.pegs:
            first.append(len(first) % space.n)
        return tuple(first)
    return space.codes[0]


def main():
    line = next_message()
    # Before GAME the referee says only INFO and PING, which next_message takes. Anything else is a
    # stream this player cannot read: stopping at once says so, where waiting would only hang.
    if not line.startswith("GAME"):
        sys.exit("player: expected GAME, got %r" % line[:60])
    f = header_fields(line)
    pegs, palette, repeat, budget = int(f["pegs"]), f["colors"], f.get("repeat", "yes") == "yes", int(f["budget"])
    space = Space(pegs, palette, repeat)
    rng = random.Random(pegs * 1000 + len(palette))
    cands = list(space.codes)
    guess = opening(space, repeat)
    while True:
        send(space.text(guess))
        reply = next_message().split()
        if reply[0] in ("SOLVED", "OVER"):
            return
        if reply[0] == "REJECT":
            continue
        mark = (int(reply[1]), int(reply[2]))
        hg = space.counts.get(guess) or space.histogram(guess)
        cands = [c for c in cands if space.feedback(c, guess, hg) == mark]
        if not cands:
            return
        guess = choose(space, cands, rng)


if __name__ == "__main__":
    main()
