#!/usr/bin/env python3
"""Audit recorded codebreak games: python3 audit.py GAMES_DIR OUT.csv"""
import csv, itertools, os, sys


def parse_game(path):
    game = {"turns": [], "reveal": None}
    turn, last_guess = 0, None
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            side, _, body = line.partition(" ")
            body = body.strip()
            words = body.split()
            if not words:
                continue
            if side == "<":
                if words[0] == "PONG":
                    continue
                turn += 1
                last_guess = words[0]
            elif side == ">":
                head = words[0]
                if head == "GAME":
                    for w in words[1:]:
                        k, _, v = w.partition("=")
                        game[k] = v
                elif head == "SCORE":
                    game["turns"].append((turn, last_guess, int(words[1]), int(words[2])))
                elif head == "SOLVED":
                    game["turns"].append((turn, last_guess, int(game["pegs"]), 0))
                elif head == "OVER":
                    game["reveal"] = body.split("=", 1)[1].strip() if "=" in body else ""
    return game


class Scorer:
    def __init__(self, pegs, palette):
        self.pegs, self.palette = pegs, palette
        self.index = {c: i for i, c in enumerate(palette)}

    def hist(self, code):
        h = [0] * len(self.palette)
        for ch in code:
            h[self.index[ch]] += 1
        return h

    def mark(self, code, guess, hg):
        hc = self.hist(code)
        total = 0
        for a, b in zip(hc, hg):
            total += min(a, b)
        exact = sum(1 for a, b in zip(code, guess) if a == b)
        return exact, total - exact


def audit(game):
    pegs, palette = int(game["pegs"]), game["colors"]
    repeat = game.get("repeat", "yes") == "yes"
    scorer = Scorer(pegs, palette)
    if repeat:
        live = ["".join(p) for p in itertools.product(palette, repeat=pegs)]
    else:
        live = ["".join(p) for p in itertools.permutations(palette, pegs)]
    for turn, guess, e, n in game["turns"]:
        if len(guess) != pegs or any(ch not in scorer.index for ch in guess):
            live = []
        else:
            hg = scorer.hist(guess)
            live = [c for c in live if scorer.mark(c, guess, hg) == (e, n)]
        if not live:
            return "inconsistent", turn, 0
    remaining = len(live)
    reveal = game["reveal"]
    if reveal is not None:
        if len(reveal) != pegs or any(ch not in scorer.index for ch in reveal) or (not repeat and len(set(reveal)) < pegs):
            return "bad_reveal", 0, remaining
        for turn, guess, e, n in game["turns"]:
            if scorer.mark(reveal, guess, scorer.hist(guess)) != (e, n):
                return "bad_reveal", turn, remaining
    return "ok", 0, remaining


def main():
    src, out = sys.argv[1], sys.argv[2]
    rows = []
    for name in sorted(os.listdir(src)):
        if not name.endswith(".log"):
            continue
        verdict, turn, remaining = audit(parse_game(os.path.join(src, name)))
        rows.append((name[: -len(".log")], verdict, turn, remaining))
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["game", "verdict", "turn", "remaining"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
