"""From a PNG file to the figure's series values (SPEC section 3)."""
from .axes import FigureError, find_frame, x_axis, y_axis
from .png import read_png
from .series import bar_tops, label_map, legend_box, line_columns, read_legend, row_at, scatter_points


def extract(path):
    img = read_png(path)
    kind = img.meta.get("kind")
    if kind not in ("line", "scatter", "bar"):
        raise FigureError("%s: unknown figure kind %r" % (path, kind))
    frame = find_frame(img)
    yax, s = y_axis(img, frame)
    box = legend_box(img, frame)
    entries = read_legend(img, box, s)
    lab = label_map(img, frame, box, entries)
    out = {"kind": kind, "series": {}}
    if kind == "line":
        xax = x_axis(img, frame, s)
        xs = [float(x) for x in img.meta["query_x"]]
        out["x"] = xs
        for k, (name, _) in enumerate(entries):
            clean = line_columns(lab, k)
            out["series"][name] = [yax.value(row_at(clean, xax.pixel(x))) for x in xs]
    elif kind == "scatter":
        xax = x_axis(img, frame, s)
        for k, (name, _) in enumerate(entries):
            pts = [[xax.value(u), yax.value(v)] for u, v in scatter_points(lab, k)]
            out["series"][name] = sorted(pts)
    else:
        for k, (name, _) in enumerate(entries):
            out["series"][name] = [yax.value(top) for _, top in bar_tops(lab, k)]
    return out
