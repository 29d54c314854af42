"""Audit of another agency's daily QC table against our own run of the same raw folder."""
from . import network, daily, output

REASON_OF_FIELD = {"n_obs": "COUNT", "n_valid": "FLAG", "n_missing": "FLAG", "n_range": "FLAG",
                   "n_clim": "FLAG", "n_persist": "FLAG", "n_spike": "FLAG",
                   "complete": "COMPLETENESS", "mean_c": "AGGREGATE", "min_c": "AGGREGATE",
                   "max_c": "AGGREGATE", "anomaly_c": "ANOMALY"}
DECIMALS = ("mean_c", "min_c", "max_c", "anomaly_c")
TOLERANCE = 0.02
FINDING_COLUMNS = ["station", "date", "reason", "field", "reported", "corrected"]


def same(field, reported, ours):
    if field in DECIMALS:
        if reported == "" or ours == "":
            return reported == ours
        try:
            return abs(float(reported) - float(ours)) <= TOLERANCE + 1e-9
        except ValueError:
            return False
    try:
        return int(reported) == int(ours)
    except ValueError:
        return False


def audit(folder, agency_csv):
    observations, climatology = network.load(folder)
    rows, _ = daily.run_network(observations, climatology)
    ours = {(r["station"], r["date"]): {c: output.cell(r[c]) for c in output.DAILY_COLUMNS} for r in rows}
    theirs = {}
    for r in network.read_table(agency_csv):
        theirs.setdefault((r.get("station", ""), r.get("date", "")), r)
    findings = []
    for key in sorted(set(ours) | set(theirs)):
        if key not in theirs:
            findings.append([key[0], key[1], "MISSING_ROW", "", "", ""])
            continue
        if key not in ours:
            findings.append([key[0], key[1], "EXTRA_ROW", "", "", ""])
            continue
        mine, rep = ours[key], theirs[key]
        for field in output.DAILY_COLUMNS[2:]:
            got = (rep.get(field) or "").strip()
            if not same(field, got, mine[field]):
                findings.append([key[0], key[1], REASON_OF_FIELD[field], field, got, mine[field]])
                break
    return findings


def write_findings(path, findings):
    output.write_rows(path, FINDING_COLUMNS, [dict(zip(FINDING_COLUMNS, f)) for f in findings])
