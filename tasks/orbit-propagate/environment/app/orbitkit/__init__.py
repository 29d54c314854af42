"""orbitkit: two-body propagation, orbit summaries, UTC epochs and periapsis events."""
