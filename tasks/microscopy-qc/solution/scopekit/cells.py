"""Cell segmentation (SOP section 5): threshold, 4-connected components, area filter."""
from .metrics import median


def components(img, factor=1.6, min_area=12):
    """Centroids (x, y) of the 4-connected components above factor x median with >= min_area pixels."""
    h, w = len(img), len(img[0])
    thr = factor * median([v for r in img for v in r])
    fg = [[v > thr for v in r] for r in img]
    seen = [[False] * w for _ in range(h)]
    out = []
    for y in range(h):
        for x in range(w):
            if not fg[y][x] or seen[y][x]:
                continue
            stack, pix = [(x, y)], []
            seen[y][x] = True
            while stack:
                px, py = stack.pop()
                pix.append((px, py))
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if 0 <= nx < w and 0 <= ny < h and fg[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            if len(pix) >= min_area:
                out.append((sum(p[0] for p in pix) / len(pix), sum(p[1] for p in pix) / len(pix)))
    return out
