"""gridkit: a small toolkit for Sudoku-family puzzles.

Modules:
  cells      -- cell names (r3c5) and coordinates
  layout     -- regions from a box shape or a region map
  puzzle     -- the Puzzle model (givens, regions, cages, inequalities, thermometers)
  parser     -- the .pz text format (docs/FORMAT.md)
  rules      -- consistency checks of a partial or full grid
  propagate  -- candidate propagation
  search     -- backtracking search, counting solutions up to two
  answer     -- answer files (status line and grid)
  batch      -- solving a folder of puzzles
"""

__version__ = "1.4.2"
