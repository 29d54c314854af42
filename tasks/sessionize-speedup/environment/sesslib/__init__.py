"""sesslib: the clickstream sessionizer behind sessionize.py and nightly.py.

Modules: parse (reading event logs), sessions (cutting per-user sessions), report (sessions.csv,
summary.json and the daily reports).
"""
GAP = 1800  # seconds; a larger step between two events of one user starts a new session
