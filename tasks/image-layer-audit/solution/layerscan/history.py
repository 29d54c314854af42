"""`imgscan.py layers IMAGE_DIR`: the chosen image's layers with the config history beside them."""
from . import blobs


def layer_table(image_dir):
    """Rows (index, digest, media type, stored size, created_by) in application order. Empty
    history entries (`empty_layer`) do not own a layer and are skipped."""
    lay, manifest, config, layers = blobs.open_image(image_dir)
    if manifest is None:
        return []
    history = [h for h in (config or {}).get("history", []) if not h.get("empty_layer")]
    rows = []
    for idx, (desc, raw) in enumerate(layers):
        created = history[idx].get("created_by", "") if idx < len(history) else ""
        rows.append((idx, desc["digest"], desc.get("mediaType", ""), desc.get("size", 0),
                     created if raw is not None else created + "  [BAD BLOB]"))
    return rows


def format_table(rows):
    out = ["%-3s %-20s %-8s %9s  %s" % ("#", "digest", "type", "size", "created by")]
    for idx, digest, media, size, created in rows:
        kind = "gzip" if media.endswith("gzip") else "tar"
        out.append("%-3d %-20s %-8s %9d  %s" % (idx, digest[:19], kind, size, created))
    return "\n".join(out)
