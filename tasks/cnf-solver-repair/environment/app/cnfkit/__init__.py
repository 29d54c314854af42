"""cnfkit: DIMACS CNF reading and writing, a DPLL solver, cardinality encodings, puzzles, audits."""
