"""Placements: where a ship may lie, and whether ships of one fleet keep apart."""
from .coords import all_neighbours, edge_neighbours
from .shapes import orientations


def placements(rules, shape, avoid=()):
    """Every distinct cell set of the shape's allowed orientations that lies on the board and
    avoids blocked cells and the cells in `avoid`."""
    seen, out = set(), []
    for orient in orientations(shape, rules.rotate):
        wmax = max(c for c, _ in orient)
        hmax = max(r for _, r in orient)
        for r0 in range(rules.height - hmax):
            for c0 in range(rules.width - wmax):
                cells = frozenset((c + c0, r + r0) for c, r in orient)
                if cells in seen or cells & rules.blocked or cells & set(avoid):
                    continue
                seen.add(cells)
                out.append(cells)
    return out


def halo(rules, cells):
    """Cells another ship may not use next to these, under the touch rule (the cells included)."""
    if rules.touch == "yes":
        return set(cells)
    near = all_neighbours if rules.touch == "corner" else edge_neighbours
    out = set(cells)
    for cell in cells:
        out.update(near(cell))
    return out


def is_orientation(rules, shape, cells):
    """Are these cells one allowed orientation of the shape, on the board, off blocked cells?"""
    cells = frozenset(cells)
    if len(cells) != len(shape) or any(not rules.on_board(c) for c in cells) or cells & rules.blocked:
        return False
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    norm = tuple(sorted((c - c0, r - r0) for c, r in cells))
    return norm in orientations(shape, rules.rotate)
