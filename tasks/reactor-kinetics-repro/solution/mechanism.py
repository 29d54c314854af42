"""Parser for the .mech mechanism format (see README.md, "Mechanism files").

A file has up to four sections: an optional UNITS line, an optional ELEMENTS block, a SPECIES
block and a REACTIONS block. Keywords are case-insensitive; '!' and '#' start a comment.
"""
import re

# Factors that turn an activation energy in the named unit into J/mol. "K" means the file gives
# Ea/R directly in kelvin; it is handled separately (multiplied by the gas constant).
ENERGY_UNITS = {
    "j/mol": 1.0,
    "kj/mol": 1000.0,
    "cal/mol": 4.184,
    "kcal/mol": 4184.0,
}
KELVIN_UNITS = ("k", "kelvin", "kelvins")
GAS_CONSTANT = 8.314462618  # J/(mol K)

_TERM = re.compile(r"^(\d+)?\s*([A-Za-z][A-Za-z0-9_()\-\*']*)$")
_REV = re.compile(r"^rev\s*/(.*)/\s*$", re.IGNORECASE)


class MechanismError(ValueError):
    """A mechanism file that cannot be read; the message names the line."""

    def __init__(self, lineno, msg):
        super().__init__("line %d: %s" % (lineno, msg))
        self.lineno = lineno


class Reaction:
    """One elementary step. reactants/products map species name -> integer coefficient."""

    def __init__(self, reactants, products, reversible, fwd, rev, text):
        self.reactants = reactants
        self.products = products
        self.reversible = reversible
        self.fwd = fwd  # (A, b, Ea in J/mol)
        self.rev = rev  # (A, b, Ea in J/mol) or None
        self.text = text

    def net(self, species):
        """Net stoichiometric coefficient of a species (products minus reactants)."""
        return self.products.get(species, 0) - self.reactants.get(species, 0)

    def __repr__(self):
        return "Reaction(%r)" % self.text


class Mechanism:
    def __init__(self):
        self.species = []         # declaration order
        self.composition = {}     # species -> {element: count}
        self.elements = []        # declared order, then order of first use
        self.reactions = []
        self.energy_unit = "j/mol"

    def index(self, name):
        return self.species.index(name)

    def element_totals(self, conc):
        """Total amount of each element for a concentration vector (species order)."""
        out = {}
        for e in self.elements:
            out[e] = sum(self.composition[s].get(e, 0) * c for s, c in zip(self.species, conc))
        return out


def _strip_comment(line):
    for mark in ("!", "#"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


def _energy_to_joules(value, unit):
    unit = unit.lower()
    if unit in KELVIN_UNITS:
        return value * GAS_CONSTANT
    return value * ENERGY_UNITS[unit]


def _parse_side(text, lineno, known):
    side = {}
    text = text.strip()
    if not text:
        raise MechanismError(lineno, "empty reaction side")
    for raw in text.split("+"):
        term = raw.strip()
        m = _TERM.match(term)
        if not m:
            raise MechanismError(lineno, "cannot read term %r" % term)
        coef = int(m.group(1)) if m.group(1) else 1
        name = m.group(2)
        if name not in known:
            raise MechanismError(lineno, "unknown species %r" % name)
        if coef <= 0:
            raise MechanismError(lineno, "coefficient must be positive in %r" % term)
        side[name] = side.get(name, 0) + coef
    return side


def _parse_numbers(tokens, lineno, unit):
    try:
        a, b, ea = (float(t) for t in tokens)
    except ValueError:
        raise MechanismError(lineno, "expected three numbers A b Ea, got %r" % " ".join(tokens))
    return (a, b, _energy_to_joules(ea, unit))


def _parse_reaction(line, lineno, mech):
    parts = line.split()
    if len(parts) < 4:
        raise MechanismError(lineno, "reaction needs an equation and A b Ea")
    equation = " ".join(parts[:-3])
    numbers = parts[-3:]
    if "<=>" in equation:
        lhs, rhs = equation.split("<=>", 1)
        reversible = True
    elif "=>" in equation:
        lhs, rhs = equation.split("=>", 1)
        reversible = False
    elif "=" in equation:
        lhs, rhs = equation.split("=", 1)
        reversible = True
    else:
        raise MechanismError(lineno, "no arrow (=>, <=> or =) in %r" % equation)
    known = set(mech.species)
    reactants = _parse_side(lhs, lineno, known)
    products = _parse_side(rhs, lineno, known)
    fwd = _parse_numbers(numbers, lineno, mech.energy_unit)
    return Reaction(reactants, products, reversible, fwd, None, equation)


def parse_text(text):
    mech = Mechanism()
    section = None
    pending = None  # reversible reaction waiting for its REV line
    declared_elements = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line:
            continue
        head = line.split()[0].lower()
        if head == "units":
            unit = " ".join(line.split()[1:]).lower()
            if unit not in ENERGY_UNITS and unit not in KELVIN_UNITS:
                raise MechanismError(lineno, "unknown energy unit %r" % unit)
            mech.energy_unit = unit
            continue
        if head in ("elements", "elem", "species", "spec", "reactions", "reac"):
            section = head[:4]
            rest = line.split()[1:]
            if section == "elem":
                for tok in rest:
                    if tok.lower() == "end":
                        section = None
                        break
                    declared_elements.append(tok)
            continue
        if head == "end":
            if pending is not None:
                raise MechanismError(lineno, "reversible reaction %r has no REV line" % pending.text)
            section = None
            continue
        if section == "elem":
            declared_elements.extend(line.split())
        elif section == "spec":
            toks = line.split()
            name = toks[0]
            if name in mech.composition:
                raise MechanismError(lineno, "species %r declared twice" % name)
            comp = {}
            for tok in toks[1:]:
                if "=" not in tok:
                    raise MechanismError(lineno, "composition must be El=n, got %r" % tok)
                el, n = tok.split("=", 1)
                comp[el] = comp.get(el, 0) + int(n)
            mech.species.append(name)
            mech.composition[name] = comp
        elif section == "reac":
            m = _REV.match(line)
            if m:
                if pending is None:
                    raise MechanismError(lineno, "REV line without a reversible reaction")
                pending.rev = _parse_numbers(m.group(1).split(), lineno, mech.energy_unit)
                mech.reactions.append(pending)
                pending = None
                continue
            if pending is not None:
                raise MechanismError(lineno, "reversible reaction %r has no REV line" % pending.text)
            rxn = _parse_reaction(line, lineno, mech)
            if rxn.reversible:
                pending = rxn
            else:
                mech.reactions.append(rxn)
        else:
            raise MechanismError(lineno, "text outside a section: %r" % line)
    if pending is not None:
        raise MechanismError(lineno, "reversible reaction %r has no REV line" % pending.text)
    elements = list(declared_elements)
    for s in mech.species:
        for el in mech.composition[s]:
            if el not in elements:
                elements.append(el)
    mech.elements = elements
    return mech


def parse_file(path):
    with open(path, encoding="utf-8") as f:
        return parse_text(f.read())
