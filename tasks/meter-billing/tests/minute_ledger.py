"""Expected bills by brute force: every UTC minute of every planted interval is booked on its own.

This is not the billing program's method (cut each interval at local midnights and band edges,
book each piece at its midpoint). Here a 7 x 1440 table gives the band of every local minute of
the week, and each interval's kWh is shared out over its minutes in proportion to how many fall
on each (local date, band). It is exact for these inputs: readings, band edges and UTC offsets
all fall on whole minutes, so no minute straddles a boundary (checked below).
"""
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
EPOCH_DAY = date(1970, 1, 1).toordinal()  # a Thursday: weekday index 3 in WEEK
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def minute_of_day(hhmm):
    hours, minutes = hhmm.split(":")
    return 60 * int(hours) + int(minutes)


def week_table(tariff):
    """table[weekday][minute] = (band name, price). Painted from the last band to the first, so the
    first listed band that covers a minute is the one left standing."""
    fallback = (tariff["default"]["name"], tariff["default"]["price"])
    table = [[fallback] * 1440 for _ in WEEK]
    for band in reversed(tariff["bands"]):
        lo, hi = minute_of_day(band["from"]), minute_of_day(band["to"])
        for day in band["days"]:
            row = table[WEEK.index(day)]
            row[lo:hi] = [(band["name"], band["price"])] * max(0, hi - lo)
    return table


def epoch_minute(instant):
    span = instant - EPOCH
    assert span.seconds % 60 == 0 and span.microseconds == 0, "reading off a whole minute: %s" % instant
    return span.days * 1440 + span.seconds // 60


def offset_minutes(tz, m):
    offset = (EPOCH + timedelta(minutes=m)).astimezone(tz).utcoffset()
    assert offset.seconds % 60 == 0, "offset off a whole minute"
    return offset.days * 1440 + offset.seconds // 60


def local_minutes(tz, first, last):
    """Local epoch minute of every UTC minute in [first, last). The offset is looked up at both ends
    of each quarter hour, and per minute in a quarter where the two differ."""
    out = []
    for q in range(first - first % 15, last, 15):
        lo, hi = offset_minutes(tz, q), offset_minutes(tz, q + 14)
        for m in range(max(q, first), min(q + 15, last)):
            out.append(m + (lo if lo == hi else offset_minutes(tz, m)))
    return out


def expected(meters, tariff):
    """meters: [(meter, tz name, [(a_utc, b_utc, kwh)])]. Returns (bill {(meter, date, band): kwh},
    summary {meter: {kwh, days, cost (unrounded)}}, days {(meter, date): (hours, kwh)})."""
    table = week_table(tariff)
    price, bill, minutes, total = {}, {}, {}, {}
    for meter, tzname, intervals in meters:
        tz = ZoneInfo(tzname)
        for a, b, kwh in intervals:
            counts = {}
            for lm in local_minutes(tz, epoch_minute(a), epoch_minute(b)):
                day = lm // 1440
                name, cost = table[(day + 3) % 7][lm % 1440]
                price[name] = cost
                counts[(day, name)] = counts.get((day, name), 0) + 1
            n = sum(counts.values())
            for (day, name), c in counts.items():
                key = (meter, date.fromordinal(EPOCH_DAY + day).isoformat(), name)
                bill[key] = bill.get(key, 0.0) + kwh * c / n
                minutes[key[:2]] = minutes.get(key[:2], 0) + c
                total[key[:2]] = total.get(key[:2], 0.0) + kwh * c / n
    bill = {k: v for k, v in bill.items() if v >= 0.00005}  # rows under half the last digit are omitted
    summary = {}
    for meter in {k[0] for k in bill}:
        mine = [(day, name, v) for (m, day, name), v in bill.items() if m == meter]
        dates = len({day for day, _, _ in mine})
        summary[meter] = {"kwh": sum(v for _, _, v in mine), "days": dates,
                          "cost": sum(v * price[name] for _, name, v in mine) + dates * tariff["standing_charge_per_day"]}
    days = {k: (c / 60.0, total[k]) for k, c in minutes.items()}
    return bill, summary, days
