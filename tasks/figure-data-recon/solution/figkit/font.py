"""The house bitmap font (font5x7.txt) and a text reader for it."""
import os

FONT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font5x7.txt")


def load_font(path=FONT_FILE):
    glyphs = {}
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("= "):
            glyphs[lines[i][2]] = tuple(tuple(ch == "#" for ch in row) for row in lines[i + 1:i + 8])
            i += 8
        else:
            i += 1
    return glyphs


GLYPHS = load_font()


def is_ink(img, x, y):
    return 0 <= x < img.width and 0 <= y < img.height and img.ink[y * img.width + x] == 1


def cell_matches(img, x0, y0, glyph, s):
    """Exact match of a whole 5s x 7s cell (ink and paper) against a glyph drawn at scale s."""
    for r in range(7 * s):
        row = glyph[r // s]
        for c in range(5 * s):
            if is_ink(img, x0 + c, y0 + r) != row[c // s]:
                return False
    return True


def read_line(img, y0, x_lo, x_hi, s):
    """Reads one line of text whose glyph cells have their top row at y0, between columns x_lo and
    x_hi. Returns [(x_start, text)] words, or None when some ink cannot be explained at scale s."""
    words, x, cur, cur_x, last_end = [], x_lo, "", None, x_lo - 1
    while x <= x_hi:
        if not any(is_ink(img, x, y0 + r) for r in range(7 * s)):
            x += 1
            continue
        # the first ink column of a glyph may lie inside its cell: try the cells that cover x
        hit = None
        for start in range(max(last_end + 1, x - 5 * s + 1), x + 1):
            for ch, gl in GLYPHS.items():
                if cell_matches(img, start, y0, gl, s):
                    hit = (start, ch)
                    break
            if hit:
                break
        if hit is None:
            return None
        start, ch = hit
        if cur and start - last_end > 2 * s:
            words.append((cur_x, cur))
            cur = ""
        if not cur:
            cur_x = start
        cur += ch
        last_end = start + 5 * s - 1
        x = start + 5 * s
    if cur:
        words.append((cur_x, cur))
    return words
