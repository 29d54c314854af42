"""Marks the referee gives a guess against its secret."""


def marks(secret, guess):
    """(exact, near).

    exact: pegs of the right colour in the right place.
    near: pegs of the guess that are not exact but whose colour occurs among the secret's
    non-exact pegs (see NOTES.md: confirmed against the referee).
    """
    exact = sum(1 for s, g in zip(secret, guess) if s == g)
    rest = {s for s, g in zip(secret, guess) if s != g}
    near = sum(1 for s, g in zip(secret, guess) if s != g and g in rest)
    return exact, near
