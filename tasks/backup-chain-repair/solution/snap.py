#!/usr/bin/env python3
"""snap.py: the command line of snapkit, a content-addressed incremental backup tool."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
from snapkit.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
