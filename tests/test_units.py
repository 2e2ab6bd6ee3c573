"""`tcpsim.units` reads quantities with the core's grammar (`tcpsim._core.parse_quantity`):
the values it gives, the texts it refuses, and that it agrees with the core on any text
(issue 16: one units grammar)."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tcpsim import units
from tcpsim._core import parse_quantity

#: Base units per unit the core answers in, and the dimension `units.parse` names.
CORE_UNITS = {"ps": (1e12, "time"), "bit/s": (1, "rate"), "p": (1, "packets"), "B": (1, "bytes")}


def core_readings(text):
    """Every (kind, value, unit) the core accepts `text` as."""
    out = []
    for kind in ("time", "rate", "size", "limit"):
        try:
            value, unit = parse_quantity(kind, text)
        except ValueError:
            continue
        out.append((kind, value, unit))
    return out


@pytest.mark.parametrize("text, value, dimension", [
    ("10Mbps", 10e6, "rate"),
    ("1.25MBps", 10e6, "rate"),
    ("1.5Mbps", 1.5e6, "rate"),
    ("1Gbps", 1e9, "rate"),
    ("448Kb", 448e3, "rate"),
    ("100Mb", 100e6, "rate"),
    ("40ms", 0.04, "time"),
    ("1.5s", 1.5, "time"),
    ("1.5e-3s", 0.0015, "time"),
    ("250us", 250e-6, "time"),
    ("250µs", 250e-6, "time"),
    ("2min", 120.0, "time"),
    ("250p", 250.0, "packets"),
    ("30 pkts", 30.0, "packets"),
    ("64KB", 64e3, "bytes"),
    ("1MiB", 2.0**20, "bytes"),
    ("1.1KB", 1100.0, "bytes"),
    ("1000 bytes", 1000.0, "bytes"),
])
def test_values_in_base_units(text, value, dimension):
    got = units.parse(text)
    assert got is not None and got[1] == dimension
    assert got[0] == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", [
    "10", "", "fast", "10mbps", " 40ms", "40ms ", "40  ms", "-1s", "+1s", "0bps",
    "1.5B", "2.5p", "1Mibps", "2000Tbps", "1e30B", "1" + "1" * 31 + "B",
])
def test_texts_the_core_refuses_are_not_quantities(text):
    """Among them the texts the former Python grammar read and the core does not (named
    in the module's docstring)."""
    assert units.parse(text) is None
    assert core_readings(text) == []


def test_only_text_is_parsed():
    for value in (10, 1.5, None, b"10ms", ["10ms"], True):
        assert units.parse(value) is None


def test_numeric_and_sort_key_order_by_value():
    values = ["100p", "25p", "1000p", "50p"]
    table, dimension = units.numeric(values)
    assert dimension == "packets" and table == {"100p": 100, "25p": 25, "1000p": 1000, "50p": 50}
    assert units.numeric(["10Mbps", "50p"]) is None  # two dimensions
    assert units.numeric(["10Mbps", "fast"]) is None
    assert units.numeric([]) is None
    assert sorted(["1Gbps", "10Mbps", "1.5Mbps", 3, "text"], key=units.sort_key) == \
        [3, "1.5Mbps", "10Mbps", "1Gbps", "text"]
    assert set(units.UNITS) == set(d for _, d in CORE_UNITS.values())


# Texts made of the pieces of the grammar, valid and not: numbers, a space or not, and
# units of every kind in right and wrong case, with and without prefixes.
NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=10**16).map(str),
    st.decimals(min_value=0, max_value=10**6, places=4, allow_nan=False).map(str),
    st.builds(lambda m, e: f"{m}e{e}", st.integers(0, 999), st.integers(-15, 15)),
    st.sampled_from(["-1", "+2", ".5", "5.", "1e", "", "x"]),
)
PREFIXES = st.sampled_from(["", "k", "K", "M", "G", "T", "Ki", "Mi", "Gi", "Ti", "m", "u"])
BASES = st.sampled_from(["ps", "ns", "us", "µs", "μs", "ms", "s", "sec", "min", "bps", "b/s",
                         "bit/s", "b", "Bps", "B/s", "B", "bytes", "p", "pkt", "pkts",
                         "packets", "MBPS", "Sec", "P", ""])
QUANTITIES = st.builds(lambda n, space, prefix, base: f"{n}{space}{prefix}{base}",
                       NUMBERS, st.sampled_from(["", " ", "  "]), PREFIXES, BASES)


@settings(max_examples=400, deadline=None)
@given(QUANTITIES)
def test_python_and_core_agree(text):
    readings = core_readings(text)
    got = units.parse(text)
    if not readings:
        assert got is None, text
        return
    # No text is a quantity of two dimensions ("size" and "limit" read bytes alike).
    dimensions = {CORE_UNITS[unit][1] for _, _, unit in readings}
    assert len(dimensions) == 1, (text, readings)
    _, value, unit = readings[0]
    per_base_unit, dimension = CORE_UNITS[unit]
    assert got == (value / per_base_unit, dimension), text
    assert math.isfinite(got[0]) and got[0] >= 0
