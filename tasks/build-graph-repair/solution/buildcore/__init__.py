"""minibuild: a small make-like incremental build tool (see /app/docs/SPEC.md)."""


class BuildError(Exception):
    """A build file or graph error: printed as `error: ...`, exit status 2."""
