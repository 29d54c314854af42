"""Solving every puzzle of a folder."""

import os

from .answer import write_answer
from .parser import load
from .search import solve


def puzzle_files(folder):
    """The .pz files of a folder, in name order."""
    return sorted(f for f in os.listdir(folder) if f.endswith(".pz"))


def run_folder(folder, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    results = {}
    for fname in puzzle_files(folder):
        puzzle = load(os.path.join(folder, fname))
        status, grid = solve(puzzle)
        write_answer(os.path.join(out_dir, puzzle.name + ".txt"), status, grid)
        results[puzzle.name] = status
    return results
