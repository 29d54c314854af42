#!/usr/bin/env python3
"""Per-endpoint digest of web access logs: see /app/docs/DIGEST.md."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from digest.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
