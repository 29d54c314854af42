"""All findings of one snapshot."""
from .accounts import account_findings
from .files import scan_listing
from .sshd import sshd_findings
from .sudoers import sudo_findings


def audit(snap):
    out = set()
    for fn in (scan_listing, sshd_findings, sudo_findings, account_findings):
        fn(snap, out)
    return out
