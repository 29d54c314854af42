"""metrickit: recompute a paper's evaluation table from released prediction dumps."""
__version__ = "0.4.1"
