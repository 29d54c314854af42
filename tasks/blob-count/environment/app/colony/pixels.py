"""The foreground rule (docs/SPEC.md section 2), exact integer arithmetic."""


def limits(depth):
    """(M, T): the full-scale sample and the threshold for a bit depth."""
    return (255, 128) if depth == 8 else (65535, 32896)


def luminance_alpha(img, px):
    """(L, A) of one pixel, L in thousandths of a sample."""
    full, _ = limits(img.depth)
    if img.ctype == 3:
        r, g, b = img.palette[px[0]]
        alphas = img.trns or []
        a = alphas[px[0]] if px[0] < len(alphas) else 0
        return 299 * r + 587 * g + 114 * b, a
    if img.ctype == 0:
        return 1000 * px[0], full
    if img.ctype == 4:
        return 1000 * px[0], full
    lum = 299 * px[0] + 587 * px[1] + 114 * px[2]
    return lum, (px[3] if img.ctype == 6 else full)


def foreground(img):
    full, thresh = limits(img.depth)
    if img.ctype == 3:
        full, thresh = 255, 128
    bar = 1000 * thresh * full
    mask = []
    for row in img.pixels:
        line = []
        for px in row:
            lum, a = luminance_alpha(img, px)
            line.append(lum * a > bar)
        mask.append(line)
    return mask
