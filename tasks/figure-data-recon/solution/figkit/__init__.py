"""figkit: recovers the data behind house-style raster charts (see /app/SPEC.md)."""
