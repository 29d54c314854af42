"""Applies payments to open invoices: by reference first, else by payer and exact amount."""
from decimal import Decimal

from . import refs

ZERO = Decimal("0.00")


def allocate(invoices, payments, fx):
    """Mutates each invoice's 'open'; returns (bookings, unapplied) in processing order."""
    bookings, unapplied = [], []
    for p in sorted(payments, key=lambda p: (p["date"], p["id"])):
        rem, pc, day = p["amount"], p["currency"], p["date"]
        named = refs.invoice_ids(p["reference"], invoices)
        if named:
            todo = sorted((invoices[k] for k in named if invoices[k]["open"] > 0), key=lambda i: (i["due"], i["id"]))
            for inv in todo:
                if rem <= 0:
                    break
                need = fx.conv(inv["open"], inv["currency"], pc, day)
                if rem >= need:
                    applied = inv["open"]
                    rem -= need
                else:
                    applied = min(inv["open"], fx.conv(rem, pc, inv["currency"], day))
                    rem = ZERO
                inv["open"] -= applied
                if applied > 0:
                    bookings.append((p["id"], inv["id"], applied, inv["currency"]))
        else:
            who = refs.norm_name(p["payer"])
            cands = [i for i in invoices.values() if i["open"] > 0 and i["customer"] == who
                     and fx.conv(i["open"], i["currency"], pc, day) == rem]
            if cands:
                inv = min(cands, key=lambda i: (i["due"], i["id"]))
                bookings.append((p["id"], inv["id"], inv["open"], inv["currency"]))
                inv["open"] = ZERO
                rem = ZERO
        if rem > 0:
            bookings.append((p["id"], "UNAPPLIED", rem, pc))
            unapplied.append((p["id"], fx.conv(rem, pc, "EUR", day)))
    return bookings, unapplied
