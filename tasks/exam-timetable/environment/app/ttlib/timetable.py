"""Timetable files: CSV `exam,day,slot,room,seats`, one row per piece of an exam."""
import csv

HEADER = ["exam", "day", "slot", "room", "seats"]


def read(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append((r["exam"].strip(), int(r["day"]), int(r["slot"]), r["room"].strip(), int(r["seats"])))
    return rows


def write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for r in rows:
            w.writerow(r)
