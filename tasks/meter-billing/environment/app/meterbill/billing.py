"""Bills of a period folder (BILLING.md sections 5 and 6)."""
import csv
import os

from .charges import Line, energy_lines, standing_lines
from .money import ZERO, cents, dec, fmt_kwh, fmt_money, kwh
from .period import Period
from .reads import load_register, slot_usage
from .tariff import load_tariffs
from .validate import require_valid

BILL_COLUMNS = ["account", "import_kwh", "export_kwh", "energy", "standing", "net", "vat", "credit", "total"]
LINE_COLUMNS = ["account", "kind", "version", "item", "quantity", "rate", "amount"]


def accounts(folder):
    with open(os.path.join(folder, "accounts.csv"), newline="", encoding="utf-8") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(f)]


def window_usage(period, folder, meter):
    lo, hi = period.window()
    usage = slot_usage(load_register(folder, meter))
    return {t: wh for t, wh in usage.items() if lo <= t < hi}


def bill_account(period, tariffs, folder, acct):
    versions = tariffs[acct["tariff"]]
    usage = window_usage(period, folder, acct["meter"])
    lines = energy_lines(period, versions, usage) + standing_lines(period, versions)
    energy = sum((l.amount for l in lines if l.kind == "energy"), ZERO)
    standing = sum((l.amount for l in lines if l.kind == "standing"), ZERO)
    net = energy + standing
    export_wh = 0
    credit = ZERO
    if acct.get("export_meter"):
        export_wh = sum(window_usage(period, folder, acct["export_meter"]).values())
        rate = dec(acct["export_rate"])
        credit = -cents(kwh(export_wh) * rate)
        lines.append(Line("export", "", "export", export_wh, rate, credit))
    vat = cents((net + credit) * period.vat_rate)
    total = net + vat + credit
    bill = {"account": acct["account"], "import_kwh": sum(usage.values()), "export_kwh": export_wh,
            "energy": energy, "standing": standing, "net": net, "vat": vat, "credit": credit, "total": total}
    return bill, lines


def bill_period(folder):
    require_valid(folder)
    period = Period(folder)
    tariffs = load_tariffs(folder)
    out = []
    for acct in sorted(accounts(folder), key=lambda a: a["account"]):
        out.append(bill_account(period, tariffs, folder, acct))
    return out


def bill_row(bill):
    row = [bill["account"], fmt_kwh(bill["import_kwh"]), fmt_kwh(bill["export_kwh"])]
    return row + [fmt_money(bill[c]) for c in BILL_COLUMNS[3:]]


def line_row(account, line):
    qty = str(line.quantity) if line.kind == "standing" else fmt_kwh(line.quantity)
    return [account, line.kind, line.version, line.item, qty, str(line.rate), fmt_money(line.amount)]


def write_outputs(results, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bills.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(BILL_COLUMNS)
        for bill, _ in results:
            w.writerow(bill_row(bill))
    with open(os.path.join(out_dir, "lines.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(LINE_COLUMNS)
        for bill, lines in results:
            for line in sorted(lines, key=lambda l: (l.kind, l.version, l.item)):
                w.writerow(line_row(bill["account"], line))
