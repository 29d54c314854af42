#!/usr/bin/env python3
"""meshtool: quality report and defect audit of a batch of 2-D triangle meshes (see SPEC.md).

    python3 /app/meshtool.py BATCH_DIR OUT_DIR

writes OUT_DIR/report.csv and OUT_DIR/audit.csv, one row per mesh of BATCH_DIR/batch.json.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from meshkit import geometry, topology  # noqa: E402
from meshkit.meshio import read_mesh  # noqa: E402

COLUMNS = ["mesh", "vertices", "dangling", "merged", "triangles", "collapsed", "area", "inverted",
           "boundary_edges", "nonmanifold_edges", "boundary_loops", "components", "euler",
           "min_angle", "angle_bins"]
CODES = ["INVERTED", "DUPLICATE", "NONMANIFOLD", "HOLE", "SLIVER", "DANGLING"]


def mesh_stats(mesh, tol):
    remap, pts = topology.merge_vertices(mesh.points, tol)
    tris, collapsed = topology.remap_triangles(mesh.triangles, remap)
    referenced = {v for t in tris for v in t}
    area, inverted, mins = 0.0, 0, []
    bins = [0] * 6
    for a, b, c in tris:
        s = geometry.signed_area(pts[a], pts[b], pts[c])
        area += abs(s)
        inverted += s < 0
        m = geometry.min_angle(pts[a], pts[b], pts[c])
        mins.append(m)
        bins[geometry.angle_bin(m)] += 1
    counts = topology.edge_counts(tris)
    bedges = topology.boundary_edges(counts)
    return {
        "mesh": mesh.name,
        "vertices": len(referenced),
        "dangling": len(pts) - len(referenced),
        "merged": len(mesh.points) - len(pts),
        "triangles": len(tris),
        "collapsed": collapsed,
        "area": area,
        "inverted": inverted,
        "boundary_edges": len(bedges),
        "nonmanifold_edges": len(topology.nonmanifold_edges(counts)),
        "boundary_loops": topology.boundary_loops(bedges, len(pts)),
        "components": topology.components(tris, len(pts)),
        "euler": len(referenced) - len(counts) + len(tris),
        "min_angle": min(mins) if mins else None,
        "angle_bins": bins,
    }


def audit_codes(st, declared_holes, sliver_deg):
    codes = []
    if st["inverted"] > 0:
        codes.append("INVERTED")
    if st["merged"] > 0:
        codes.append("DUPLICATE")
    if st["nonmanifold_edges"] > 0:
        codes.append("NONMANIFOLD")
    if st["boundary_loops"] - st["components"] != declared_holes:
        codes.append("HOLE")
    if st["min_angle"] is not None and st["min_angle"] < sliver_deg:
        codes.append("SLIVER")
    if st["dangling"] > 0:
        codes.append("DANGLING")
    return codes


def cell(v):
    if v is None:
        return ""
    if isinstance(v, list):
        return ";".join(str(x) for x in v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def main(argv):
    if len(argv) != 3:
        print("usage: meshtool.py BATCH_DIR OUT_DIR", file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    with open(os.path.join(src, "batch.json")) as f:
        batch = json.load(f)
    tol = float(batch.get("merge_tol", 0.0))
    sliver = float(batch.get("sliver_deg", 15.0))
    os.makedirs(out, exist_ok=True)
    rows, audit = [], []
    for entry in batch["meshes"]:
        st = mesh_stats(read_mesh(os.path.join(src, entry["file"])), tol)
        st["mesh"] = entry["file"]
        rows.append(st)
        codes = audit_codes(st, int(entry.get("holes", 0)), sliver)
        audit.append([entry["file"], ";".join(codes) or "OK"])
    with open(os.path.join(out, "report.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for st in rows:
            w.writerow([cell(st[c]) for c in COLUMNS])
    with open(os.path.join(out, "audit.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mesh", "codes"])
        w.writerows(audit)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
