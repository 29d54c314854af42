"""logdigest: per-endpoint digests of web access logs (standard library only).

Modules: wrappers (gzip / base64 unwrapping and log names), sources (which files of a bundle are
read), timeutil (timestamps and windows), fields (JSON-lines field aliases and latency units),
parsers (access-log and JSON-lines records), routes (path normalisation), bots (user-agent rules),
stats (percentiles and rates), report (the digest), cli (the command line).
"""

__version__ = "2.3.1"
