"""specfit: 1-D spectrum pipeline (readers, baseline, peak fitting, quantification)."""
