"""rkin: a small mass-action kinetics toolkit (mechanism parser, rate laws, stiff integrator).

Modules:
    mechanism  -- reads the .mech text format into a Mechanism
    rates      -- Arrhenius rate constants, right-hand side and Jacobian of the ODE system
    linalg     -- dense LU factorisation for the implicit stages
    integrate  -- adaptive Rosenbrock (2,3) integrator for stiff systems
    report     -- CSV writers used by the driver
"""
from .mechanism import Mechanism, Reaction, MechanismError, parse_file, parse_text
from .rates import Model
from .integrate import Integrator, IntegrationError

__all__ = ["Mechanism", "Reaction", "MechanismError", "parse_file", "parse_text", "Model",
           "Integrator", "IntegrationError"]
__version__ = "0.4.2"
