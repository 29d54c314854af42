"""meshkit: readers, geometry and topology of 2-D triangle meshes (see /app/SPEC.md)."""
