"""irkit: authentication-log forensics for Linux hosts (sessions, incident timeline, alerts)."""
__version__ = "0.4.0"
