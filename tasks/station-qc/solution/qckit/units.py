"""Temperature units as the loggers spell them, and conversion to degrees Celsius."""

CELSIUS = "C"
FAHRENHEIT = "F"
KELVIN = "K"

_ALIASES = {
    "c": CELSIUS, "degc": CELSIUS, "°c": CELSIUS, "celsius": CELSIUS, "degreesc": CELSIUS,
    "f": FAHRENHEIT, "degf": FAHRENHEIT, "°f": FAHRENHEIT, "fahrenheit": FAHRENHEIT,
    "degreesf": FAHRENHEIT,
    "k": KELVIN, "kelvin": KELVIN, "degk": KELVIN,
}


class UnitError(ValueError):
    pass


def normalise_unit(text, default=CELSIUS):
    """'Deg F', 'degF', '°F', 'fahrenheit' -> 'F'. Empty text gives the default."""
    if text is None:
        return default
    key = "".join(text.split()).lower()
    if not key:
        return default
    if key in _ALIASES:
        return _ALIASES[key]
    raise UnitError("unknown temperature unit %r" % text)


def to_celsius(value, unit):
    if unit == CELSIUS:
        return value
    if unit == FAHRENHEIT:
        return (value - 32.0) * 5.0 / 9.0
    if unit == KELVIN:
        return value - 273.15
    raise UnitError("unknown temperature unit %r" % unit)
