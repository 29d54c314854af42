"""Sanity checks of extracted terms and of a booked schedule.

Terms that cannot be booked (no principal, a zero term, an interest-only period as long as the
term, a balloon above the principal, a rate change or extra payment after the last instalment)
raise ContractError with the contract's stem, so one bad agreement names itself. The schedule
checks are the desk's own cross-checks; a failure is a bug of the booking code, reported on
stderr, never silently written.
"""
from .money import ZERO


class ContractError(ValueError):
    pass


def check_terms(stem, t):
    problems = []
    if t["principal"] <= ZERO:
        problems.append("principal must be positive")
    if t["n"] <= 0:
        problems.append("term must be at least one instalment")
    if t["rate"] < 0 or any(r < 0 for r in t["changes"].values()):
        problems.append("negative rate")
    if t["io"] >= t["n"] and t["n"] > 0:
        problems.append("interest-only period covers the whole term")
    if t["balloon"] >= t["principal"]:
        problems.append("balloon not below the principal")
    late = [k for k in list(t["changes"]) + list(t["extras"]) if k < 1 or k > t["n"]]
    if late:
        problems.append("clauses for instalments outside 1..%d: %s" % (t["n"], sorted(late)))
    if problems:
        raise ContractError("%s: %s" % (stem, "; ".join(problems)))
    return t


def schedule_problems(t, rows):
    """Human-readable list of broken cross-checks (empty when the schedule is consistent)."""
    out = []
    if not rows:
        return ["no instalments"]
    repaid = sum((r["principal"] + r["extra"] for r in rows), ZERO)
    if repaid != t["principal"]:
        out.append("principal repaid %s of %s" % (repaid, t["principal"]))
    if rows[-1]["balance"] != ZERO:
        out.append("balance left after the last instalment: %s" % rows[-1]["balance"])
    if len(rows) > t["n"]:
        out.append("%d rows for a term of %d" % (len(rows), t["n"]))
    previous = t["principal"]
    for r in rows:
        if r["payment"] != r["interest"] + r["principal"]:
            out.append("instalment %d: payment is not interest + principal" % r["k"])
        if r["balance"] != previous - r["principal"] - r["extra"]:
            out.append("instalment %d: balance does not follow" % r["k"])
        if r["extra"] < ZERO or r["principal"] < ZERO:
            out.append("instalment %d: negative principal or extra" % r["k"])
        previous = r["balance"]
    return out
