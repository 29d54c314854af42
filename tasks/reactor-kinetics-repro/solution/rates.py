"""Mass-action rate laws: Arrhenius rate constants, the ODE right-hand side and its Jacobian."""
import math

from .mechanism import GAS_CONSTANT

R = GAS_CONSTANT  # J/(mol K); activation energies are stored in J/mol by the parser


def arrhenius(params, temperature):
    a, b, ea = params
    return a * temperature ** b * math.exp(-ea / (R * temperature))


class Model:
    """dc/dt = f(c) for a mechanism at a fixed temperature (isothermal, constant volume).

    Each reaction contributes one term per direction: (k, orders, stoich) where the rate of the
    term is k * prod(c[i] ** orders[i]) and stoich[i] is how much species i changes per unit rate.
    """

    def __init__(self, mech, temperature):
        self.mech = mech
        self.temperature = temperature
        self.n = len(mech.species)
        self.terms = []
        idx = {s: i for i, s in enumerate(mech.species)}
        for rxn in mech.reactions:
            net = [0] * self.n
            for s in mech.species:
                net[idx[s]] = rxn.net(s)
            fwd_orders = [(idx[s], c) for s, c in sorted(rxn.reactants.items())]
            kf = arrhenius(rxn.fwd, temperature)
            self.terms.append((kf, fwd_orders, [(i, v) for i, v in enumerate(net) if v != 0]))
            if rxn.reversible:
                rev_orders = [(idx[s], c) for s, c in sorted(rxn.products.items())]
                kr = arrhenius(rxn.rev, temperature)
                self.terms.append((kr, rev_orders, [(i, -v) for i, v in enumerate(net) if v != 0]))

    def rate_constants(self):
        return [t[0] for t in self.terms]

    def rhs(self, c):
        dc = [0.0] * self.n
        for k, orders, stoich in self.terms:
            r = k
            for i, o in orders:
                r *= c[i] ** o
            if r != 0.0:
                for i, v in stoich:
                    dc[i] += v * r
        return dc

    def jacobian(self, c):
        n = self.n
        jac = [[0.0] * n for _ in range(n)]
        for k, orders, stoich in self.terms:
            for j, (col, oj) in enumerate(orders):
                d = k * oj * c[col] ** (oj - 1)
                for m, (i, o) in enumerate(orders):
                    if m != j:
                        d *= c[i] ** o
                if d != 0.0:
                    for i, v in stoich:
                        jac[i][col] += v * d
        return jac
