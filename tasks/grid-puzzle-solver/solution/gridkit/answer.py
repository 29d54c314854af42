"""Answer files: a status line (UNIQUE, MULTIPLE or NONE), then for UNIQUE and MULTIPLE the
grid, one line of n digits per row."""

STATUSES = ("UNIQUE", "MULTIPLE", "NONE")


def format_answer(status, grid):
    lines = [status]
    if grid is not None:
        lines += ["".join(str(v) for v in row) for row in grid]
    return "\n".join(lines) + "\n"


def write_answer(path, status, grid):
    with open(path, "w", encoding="utf-8") as f:
        f.write(format_answer(status, grid))


def read_answer(path):
    """(status, rows) of an answer or a submission file; rows are the raw grid lines."""
    with open(path, encoding="utf-8") as f:
        lines = [ln.split("#", 1)[0].strip() for ln in f.read().splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        return "", []
    return lines[0].upper(), [ln.replace(" ", "") for ln in lines[1:]]
