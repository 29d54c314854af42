"""deduce: client and solver pieces for the codebreak referee (work in progress)."""
