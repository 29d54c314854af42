#!/usr/bin/env python3
"""Entry point: books loan schedules (`CONTRACTS_DIR OUTPUT_DIR`)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loanbook.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
