"""Cell names: a column letter (A = first column) followed by a row number (1 = top row)."""
LETTERS = "ABCDEFGHIJKLMNOP"  # column letters, A = first column


def parse_cell(text):
    """'C10' -> (col, row), both 0-based."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        raise ValueError("bad cell %r" % text)
    return LETTERS.index(text[0]), int(text[1:]) - 1


def cell_name(cell):
    col, row = cell
    return "%s%d" % (LETTERS[col], row + 1)


def edge_neighbours(cell):
    c, r = cell
    return [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]


def all_neighbours(cell):
    c, r = cell
    return [(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr]
