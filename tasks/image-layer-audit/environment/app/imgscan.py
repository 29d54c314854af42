#!/usr/bin/env python3
"""imgscan: scan an OCI image layout for risky permissions, secrets and vulnerable packages.

  imgscan.py scan    IMAGE_DIR FEED_JSON OUT_JSON
  imgscan.py layers  IMAGE_DIR
  imgscan.py summary REPORT_JSON
  imgscan.py audit   IMAGE_DIR FEED_JSON REPORT_JSON OUT_CSV   (not written yet)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layerscan import vulns  # noqa: E402
from layerscan.scan import scan_image  # noqa: E402


def main(argv):
    if len(argv) == 4 and argv[0] == "scan":
        report = scan_image(argv[1], vulns.load_feed(argv[2]))
        with open(argv[3], "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2, sort_keys=True)
            f.write("\n")
        return 0
    if len(argv) == 2 and argv[0] == "layers":
        from layerscan.history import format_table, layer_table
        print(format_table(layer_table(argv[1])))
        return 0
    if len(argv) == 2 and argv[0] == "summary":
        from layerscan.summary import summarise_file
        print(summarise_file(argv[1]))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
