"""pvyield: expected AC energy of a fixed-tilt PV plant from weather files."""
