"""meterbill: retail-energy billing from smart-meter register reads (standard library only)."""
__version__ = "1.4.2"
