"""ridgekit: cross-validated ridge regression for the cohort study (methods: /app/docs/METHODS.md)."""
__version__ = "1.4.2"
