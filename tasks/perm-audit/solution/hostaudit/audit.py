"""All findings of one snapshot."""
from .accounts import account_findings
from .files import file_findings
from .sshd import sshd_findings
from .sudoers import sudo_findings


def audit(snap):
    out = set()
    for fn in (file_findings, sshd_findings, sudo_findings, account_findings):
        fn(snap, out)
    return out
