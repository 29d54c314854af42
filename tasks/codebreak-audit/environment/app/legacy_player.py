#!/usr/bin/env python3
"""First cut of a player (unfinished): python3 referee.py -- python3 legacy_player.py"""
from deduce.wire import Link
from deduce.space import all_codes
from deduce.prune import narrow, candidates
from deduce.strategy import next_guess


def main():
    link = Link()
    game = link.hello()
    cands = all_codes(game["pegs"], game["colors"], game["repeat"])
    domains = [set(game["colors"]) for _ in range(game["pegs"])]
    history = []
    while True:
        guess = next_guess(cands, history)
        link.guess(guess)
        r = link.reply()
        if r[0] != "score":
            return
        history.append((guess, r[1], r[2]))
        domains = narrow(domains, guess, r[1], r[2])
        cands = candidates(domains, history)


if __name__ == "__main__":
    main()
