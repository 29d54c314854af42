"""calib: calibration metrics and temperature scaling (see SPEC.md)."""
