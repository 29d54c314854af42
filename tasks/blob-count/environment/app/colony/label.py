"""Connected components of a boolean mask (pixel neighbours), by iterative flood fill."""

NEIGHBOURS = [(0, -1), (-1, 0), (1, 0), (0, 1)]


def components(mask):
    h = len(mask)
    w = len(mask[0]) if h else 0
    seen = [[False] * w for _ in range(h)]
    found = []
    for y in range(h):
        for x in range(w):
            if not mask[y][x] or seen[y][x]:
                continue
            seen[y][x] = True
            stack, pixels = [(x, y)], []
            while stack:
                px, py = stack.pop()
                pixels.append((px, py))
                for ox, oy in NEIGHBOURS:
                    nx, ny = px + ox, py + oy
                    if 0 <= nx < w and 0 <= ny < h and mask[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            found.append(pixels)
    return found
