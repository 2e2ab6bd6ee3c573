"""Property test of the Python side's readers of scenario and sweep spec files
(hypothesis, a short budget): whatever the bytes, reading never raises anything but
`tcpsim.ScenarioError`, and every error names the file and a line; an error about a key
names the key."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tcpsim
from tcpsim.sweep import Sweep

KEYS = ["base", "seeds", "grid", "out", "name", "simulation", "duration", "dumbbell",
        "flow[*].recovery", "dumbbell.bottleneck.queue.max_th", "dumbbell.bottleneck.rate",
        "flow[9].cc", "a..b", "queue.kind", "seed"]
SCALARS = st.one_of(st.integers(-5, 300), st.floats(allow_nan=True), st.booleans(),
                    st.sampled_from(["reno", "10Mbps", "50p", "x", "", "base.toml", "\u00e9"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3), max_leaves=8)


def _toml_line(key: str, value) -> str:
    from tcpsim._toml import inline, toml_key

    try:
        return f"{toml_key(key)} = {inline(value)}"
    except (TypeError, ValueError):
        return f"{key} = 1"


@st.composite
def specs(draw):
    """Sweep-spec-shaped text with random keys, values, tables and damage."""
    lines = ["[sweep]"]
    if draw(st.booleans()):
        lines.append('base = "base.toml"')
    for _ in range(draw(st.integers(0, 3))):
        lines.append(_toml_line(draw(st.sampled_from(KEYS)), draw(VALUES)))
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["[sweep.grid]", "[base]", "[other]", "[[sweep]]"])))
        for _ in range(draw(st.integers(0, 3))):
            lines.append(_toml_line(draw(st.sampled_from(KEYS)), draw(VALUES)))
    text = "\n".join(lines) + "\n"
    data = text.encode()
    damage = draw(st.sampled_from(["none", "bytes", "cut", "nest"]))
    if damage == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    elif damage == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "nest":
        depth = draw(st.integers(1, 3000))
        data += b"deep = " + b"[" * depth + b"]" * depth + b"\n"
    return data


def _check(message: str, path, line_required: bool = True) -> None:
    assert message.startswith(str(path)), message
    has_line = re.search(r", line \d+", message) is not None
    if line_required:
        assert has_line, message
    else:  # the core names no line for a table that is missing altogether
        assert has_line or re.search(r"key '[^']*'", message), message
    syntax = ("not valid TOML", "UTF-8", "binary file", "nested more deeply")
    if not any(s in message for s in syntax) and re.search(r"\bkey\b", message):
        assert re.search(r"key '[^']*'", message), message


@pytest.fixture(scope="module")
def spec_dir(tmp_path_factory, small_scenario):
    d = tmp_path_factory.mktemp("props")
    (d / "base.toml").write_text(small_scenario)
    return d


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=specs())
def test_sweep_spec_reader_errors_name_file_line_and_key(spec_dir, data):
    path = spec_dir / "spec.toml"
    path.write_bytes(data)
    try:
        Sweep.from_spec(path)
    except tcpsim.ScenarioError as e:
        _check(str(e), path)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.binary(max_size=200) | specs())
def test_scenario_reader_errors_name_file_and_line(spec_dir, data):
    path = spec_dir / "scenario.toml"
    path.write_bytes(data)
    for read in (tcpsim.validate, tcpsim.Scenario.load):
        try:
            read(path)
        except tcpsim.ScenarioError as e:
            _check(str(e), path, line_required="missing" not in str(e))
