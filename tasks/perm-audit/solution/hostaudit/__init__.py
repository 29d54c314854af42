"""hostaudit: hardening audit of host snapshots (file modes, sshd, sudoers, accounts)."""
