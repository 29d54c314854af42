"""Plant metadata (plant.json)."""
import json

FIELDS = ("latitude", "longitude", "utc_offset_hours", "tilt_deg", "azimuth_deg", "dc_capacity_kw",
          "ac_limit_kw", "gamma_pdc_pct_per_c", "inverter_efficiency", "dc_loss_fraction", "albedo")


class Plant:
    def __init__(self, data):
        for key in FIELDS:
            setattr(self, key, float(data[key]))
        self.name = data.get("name", "")


def load_plant(path):
    with open(path, encoding="utf-8") as f:
        return Plant(json.load(f))
