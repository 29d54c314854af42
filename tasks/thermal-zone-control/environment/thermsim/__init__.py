"""thermsim: a small two-node (air + thermal mass) zone simulator.

See /app/README.md for the model, the file formats and the controller protocol.
"""
from .model import ZoneParams, derivatives
from .integrate import simulate
from .io import read_params, read_inputs, write_states

__all__ = ["ZoneParams", "derivatives", "simulate", "read_params", "read_inputs", "write_states"]
