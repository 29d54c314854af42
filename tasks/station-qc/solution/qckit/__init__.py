"""qckit: quality control of hourly air temperature from a weather-station network.

Modules: units (unit names and conversion), timeutil (timestamps and UTC offsets), tokens
(missing-value tokens and numbers), hdrcsv and toa5 (the two logger formats), network (station
metadata, climatology, loading and de-duplicating a month folder), qc (the per-observation tests),
daily (station-day aggregation and the flag summary), output (CSV writing)."""

__version__ = "2.3.1"
