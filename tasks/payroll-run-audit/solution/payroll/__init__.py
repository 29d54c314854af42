"""payroll: the bureau's payroll engine (standard library only)."""
