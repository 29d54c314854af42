"""pvyield command line.

    python3 /app/pvctl.py expected SITE_DIR OUT.csv
    python3 /app/pvctl.py monthly  SITE_DIR OUT.csv
    python3 /app/pvctl.py audit    SITE_DIR OUT.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pvyield.audit import audit, load_meter, load_orders  # noqa: E402
from pvyield.model import run  # noqa: E402
from pvyield.plant import load_plant  # noqa: E402
from pvyield.report import monthly, write_audit, write_intervals, write_monthly  # noqa: E402
from pvyield.weather import load_weather  # noqa: E402


def main(argv):
    if len(argv) != 3 or argv[0] not in ("expected", "monthly", "audit"):
        sys.stderr.write(__doc__)
        return 2
    cmd, site, out = argv
    plant = load_plant(os.path.join(site, "plant.json"))
    weather = load_weather(os.path.join(site, "weather.csv"))
    ivs = run(plant, weather)
    if cmd == "expected":
        write_intervals(out, ivs)
    elif cmd == "monthly":
        write_monthly(out, monthly(plant, ivs, weather.step_min))
    else:
        meter = load_meter(os.path.join(site, "meter.csv"))
        orders = load_orders(os.path.join(site, "curtailment.csv"))
        write_audit(out, audit(plant, ivs, weather.step_min, meter, orders))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
