"""Audit of a technician's manual counts against the counter (docs/SPEC.md section 5).

Not written yet: the lab asked for it after the November batches (see the SPEC)."""


def audit(folder, manual_path, out_path):
    raise NotImplementedError("audit is not implemented yet")
