"""flight: the pad-landing autopilot of /app/pilot.py and its flight-log tools.

Modules, in the order one answer is computed (docs/FLIGHT.md is the contract):
  protocol   -- JSON lines in (init, obs, end), one command line out per obs
  sensors    -- readings with dropouts (null), the first full fix
  estimator  -- alpha-beta state filter driven by the last command and the wind estimate
  wind       -- horizontal disturbance (wind) estimate from the velocity innovation
  guidance   -- desired velocities: lateral approach, descent profile, terminal phase
  throttle   -- desired acceleration -> thrust and tilt within the limits
  autopilot  -- ties one step together
  logs       -- reading the flight recorder's logs (docs/FLIGHT.md §6)
"""

VERSION = "1.4.2"
