"""tok: byte-level BPE trainer, encoder and corpus statistics (see /app/SPEC.md)."""
