"""windkit: wind-turbine performance from 10-minute SCADA (power curve, AEP, availability)."""
