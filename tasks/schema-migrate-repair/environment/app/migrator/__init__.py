"""sqlmig: versioned, undo and repeatable SQL migrations for SQLite databases."""


class MigrationError(Exception):
    """A refused command: nothing was changed (exit status 2)."""
