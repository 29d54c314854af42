"""Client addresses."""


def normalise(text):
    return text.strip().lower()
