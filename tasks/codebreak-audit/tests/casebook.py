"""Recorded games for the audit subtasks, built by construction, and their expected audit rows by
exhaustive enumeration of each game's code space (the grader's own scorer, not the player's)."""
import itertools, random
from operator import eq

LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
# (pegs, colours, repeats allowed, budget): the referee's modes plus two small ones.
KINDS = {
    "classic": (4, 6, True, 8),
    "norepeat": (5, 8, False, 8),
    "wide": (5, 7, True, 9),
    "tiny": (3, 5, False, 6),
    "quad": (4, 7, True, 8),
}


def pegs_score(secret, guess):
    """(exact, near) by multiset intersection: total colour matches minus positional matches."""
    both = 0
    for colour in set(guess):
        both += min(secret.count(colour), guess.count(colour))
    exact = sum(1 for i in range(len(guess)) if guess[i] == secret[i])
    return exact, both - exact


def fits(guess, exact, near):
    """A test `code -> pegs_score(code, guess) == (exact, near)` for codes as long as the guess.

    Speed: the audit rows score every code of a game's space (up to 16807) against each answer.
    This is the same multiset count with the guess's side counted once, the positional matches
    counted first (most codes already fail there) and no tuple built."""
    both = exact + near
    counts = [(colour, guess.count(colour)) for colour in set(guess)]

    def test(code):
        if sum(map(eq, code, guess)) != exact:
            return False
        total = 0
        for colour, n in counts:
            k = code.count(colour)
            total += k if k < n else n
        return total == both
    return test


def code_space(pegs, palette, repeat):
    if repeat:
        return ["".join(t) for t in itertools.product(palette, repeat=pegs)]
    return ["".join(t) for t in itertools.permutations(palette, pegs)]


def expected_row(game):
    """The audit row of one game: (verdict, turn, remaining)."""
    pegs, palette, repeat = game["pegs"], game["palette"], game["repeat"]
    cons = game["constraints"]  # [(turn, guess, exact, near)], SOLVED as (turn, guess, pegs, 0)
    # Every code is scored against the answers in turn order until one does not fit. Done answer by
    # answer: `alive` holds the codes that fit answers 0..k-1, so the codes that stop at answer k
    # are those `alive` loses there, and the deepest stop is the last k where it loses any.
    deepest, alive = -1, code_space(pegs, palette, repeat)
    for k, (_, guess, exact, near) in enumerate(cons):
        fit = list(filter(fits(guess, exact, near), alive))
        if len(fit) < len(alive):
            deepest = k
        alive = fit
    remaining = len(alive)
    if remaining == 0:
        return "inconsistent", cons[deepest][0] if deepest >= 0 else cons[0][0], 0
    reveal = game.get("reveal")
    if reveal is not None:
        legal = len(reveal) == pegs and all(c in palette for c in reveal) and (repeat or len(set(reveal)) == pegs)
        if not legal:
            return "bad_reveal", 0, remaining
        for turn, guess, e, n in cons:
            if pegs_score(reveal, guess) != (e, n):
                return "bad_reveal", turn, remaining
    return "ok", 0, remaining


def _random_code(rng, pegs, palette, repeat):
    if repeat:
        return "".join(rng.choice(palette) for _ in range(pegs))
    return "".join(rng.sample(palette, pegs))


def _other_mark(rng, pegs, mark):
    pairs = [(e, n) for e in range(pegs) for n in range(pegs + 1 - e) if (e, n) != mark]
    near = [p for p in pairs if abs(p[0] - mark[0]) + abs(p[1] - mark[1]) <= 2]
    return rng.choice(near or pairs)


def make_game(rng, name, kind, fate):
    """fate: clean_over, clean_solved, lie_over, lie_solved, switch_over (the referee changes its secret
    to another code that fits every earlier answer), impossible, bad_reveal, reveal_repeat,
    abandoned (the log stops after a few turns without an end line)."""
    pegs, ncol, repeat, budget = KINDS[kind]
    if kind == "quad" or rng.random() < 0.3:
        palette = "".join(sorted(rng.sample(LETTERS, ncol)))
    else:
        palette = LETTERS[:ncol]
    if fate == "reveal_repeat":
        repeat = False
    secret = _random_code(rng, pegs, palette, repeat)
    solved_at = None
    if fate in ("clean_solved", "lie_solved"):
        solved_at = rng.randint(4, budget)
    lie_at = rng.randint(1, min(budget - 1, 5)) if fate in ("lie_over", "lie_solved", "impossible") else None
    true_secret = secret
    if fate == "switch_over":
        lie_at = rng.randint(2, 4)
    if fate == "lie_solved":
        lie_at = rng.randint(1, solved_at - 1)
    lines = ["# recorded game %s" % name] if rng.random() < 0.7 else []
    lines.append("> INFO codebreak referee 2.%d" % rng.randint(0, 3))
    lines.append("> GAME pegs=%d colors=%s repeat=%s budget=%d" % (pegs, palette, "yes" if repeat else "no", budget))
    cons, reveal = [], None
    stop_at = rng.randint(2, 4) if fate == "abandoned" else None
    for turn in range(1, budget + 1):
        if turn == stop_at:
            lines.append("> INFO player-left")
            break
        if turn == solved_at:
            guess = secret
        elif rng.random() < 0.06:
            guess = _random_code(rng, pegs + rng.choice([-1, 1]), palette, True)  # wrong length
        elif rng.random() < 0.06:
            stray = rng.choice([c for c in LETTERS if c not in palette])
            guess = _random_code(rng, pegs - 1, palette, True) + stray  # a colour not in the palette
        else:
            guess = _random_code(rng, pegs, palette, True)
            while guess == secret:
                guess = _random_code(rng, pegs, palette, True)
        lines.append("< " + guess)
        if rng.random() < 0.15:
            lines.append("> INFO turns-left=%d" % (budget - turn))
        if rng.random() < 0.1:
            token = "%04d" % rng.randrange(10000)
            lines += ["> PING " + token, "< PONG " + token]
        if len(guess) != pegs:
            lines.append("> REJECT length")
            continue
        if any(c not in palette for c in guess):
            lines.append("> REJECT colour")
            continue
        if turn == lie_at and fate == "switch_over":
            # the codes other than the secret that fit every earlier answer but mark this guess
            # differently, in code-space order (filtered answer by answer: fits() is pegs_score)
            pool = [c for c in code_space(pegs, palette, repeat) if c != secret]
            for _, g, e, n in cons:
                pool = list(filter(fits(g, e, n), pool))
            same = fits(guess, *pegs_score(secret, guess))
            pool = [c for c in pool if not same(c)]
            if pool:
                true_secret, secret = secret, rng.choice(pool)
        mark = pegs_score(secret, guess)
        if turn == solved_at:
            lines.append("> SOLVED %d" % turn)
            cons.append((turn, guess, pegs, 0))
            break
        if turn == lie_at and fate != "switch_over":
            mark = (pegs - 1, 1) if fate == "impossible" else _other_mark(rng, pegs, mark)
        lines.append("> SCORE %d %d" % mark)
        cons.append((turn, guess, mark[0], mark[1]))
        if rng.random() < 0.05:
            lines.append("")
    else:
        reveal = true_secret if fate == "switch_over" else secret
        if fate == "bad_reveal":
            while reveal == secret:
                reveal = _random_code(rng, pegs, palette, repeat)
        if fate == "reveal_repeat":
            i = rng.randrange(pegs)
            j = (i + 1 + rng.randrange(pegs - 1)) % pegs
            reveal = reveal[:i] + reveal[j] + reveal[i + 1:]
        lines.append("> OVER secret=%s" % reveal)
    game = dict(name=name, pegs=pegs, palette=palette, repeat=repeat, constraints=cons, reveal=reveal, fate=fate)
    return game, "\n".join(lines) + "\n"


FATES = ["clean_over", "clean_solved", "lie_over", "switch_over", "lie_solved", "lie_over", "switch_over",
         "lie_solved", "impossible", "bad_reveal", "reveal_repeat", "clean_over", "abandoned", "abandoned",
         "abandoned", "reveal_repeat"]


def make_set(seed_label, count):
    """count games over every kind and fate, named game-NN (shuffled), with their expected rows."""
    rng = random.Random("codebreak-casebook/%s" % seed_label)
    plan = []
    kinds = sorted(KINDS)
    for i in range(count):
        plan.append((kinds[i % len(kinds)], FATES[i % len(FATES)]))
    rng.shuffle(plan)
    games = []
    for i, (kind, fate) in enumerate(plan):
        if fate == "reveal_repeat" and KINDS[kind][2]:
            kind = rng.choice(["norepeat", "tiny"])
        if fate == "abandoned":
            kind = rng.choice(["norepeat", "tiny", "norepeat", "classic", "quad"])
        name = "game-%02d" % (i + 1)
        game, text = make_game(rng, name, kind, fate)
        games.append((name, text, expected_row(game), game))
    return games
