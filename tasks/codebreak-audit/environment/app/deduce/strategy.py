"""Which code to try next."""


def next_guess(cands, history):
    # TODO: something smarter than the first candidate (budget is tight on 5-peg games)
    return cands[0]
