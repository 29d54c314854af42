"""scopekit: QC, drift and cell counts for time-lapse microscopy sessions (standard library only)."""
