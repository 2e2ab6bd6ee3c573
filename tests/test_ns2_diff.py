"""Differential tests: tcpsim against ns-2.35 on the cases of validation/ns2/.

Case A  one Reno flow, 20-packet DropTail bottleneck, 100 s:
        goodput within 2 %, bottleneck drops within 10 % of ns-2.
Case FAILOVER (dynamic, static): link dynamics on a diamond; tolerances in
        harness.case_failover.
Case LINKDOWN-CBR: a link going down under CBR: its d and v trace lines exactly as ns-2's.
Case DELAY-CBR: a delay decrease under CBR: every trace line as ns-2's, in order.
Case B1 bench/b1.toml vs `ns bench/ns2/dumbbell.tcl 16 60 Newreno RED 100Mb`:
        aggregate goodput within 3 %, Jain's index within 0.02 (absolute).

Skipped when ns-2's `ns` is not on PATH (set $NS2 to point elsewhere). The tcpsim binary
is <repo>/target/release/tcpsim-run (or $TCPSIM_RUN), built with
`cargo build --release -p tcpsim` when missing. On failure both sides' numbers are printed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_HARNESS_PATH = REPO / "validation" / "ns2" / "harness.py"
_spec = importlib.util.spec_from_file_location("tcpsim_ns2_harness", _HARNESS_PATH)
harness = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = harness
_spec.loader.exec_module(harness)

pytestmark = pytest.mark.skipif(
    harness.ns_binary() is None,
    reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2` to run the "
           "differential tests against ns-2.35",
)


@pytest.fixture(scope="module")
def tcpsim_run():
    try:
        return harness.tcpsim_binary(build=True)
    except harness.HarnessError as e:
        pytest.fail(f"tcpsim-run is not available: {e}")


def _assert_case(res):
    report = res.report()
    print(report)  # shown by pytest for failing tests (and with -s)
    assert res.ok, "\n" + report


def test_case_a_reno_droptail(tcpsim_run):
    _assert_case(harness.case_a(100.0))


def test_case_b1_newreno_red_dumbbell(tcpsim_run):
    _assert_case(harness.case_b1(60.0))


@pytest.mark.parametrize("mode", ["dynamic", "static"])
def test_case_failover_link_dynamics(tcpsim_run, mode):
    """A link down and up (rtmodel-at) and a bandwidth change, with Session or static
    routing (validation/ns2/case_failover.tcl + .toml)."""
    _assert_case(harness.case_failover(mode))


def test_case_linkdown_cbr_traces_the_drops_as_ns2(tcpsim_run):
    """A link that goes down drops its queue, then the packet being sent and those
    propagating, with the same trace lines as ns-2.35 (validation/ns2/case_linkdown_cbr)."""
    _assert_case(harness.case_linkdown_cbr())


def test_case_delay_cbr_reorders_as_ns2(tcpsim_run):
    """A delay decrease: packets sent after it overtake those on the wire, every trace
    line as ns-2.35's (validation/ns2/case_delay_cbr)."""
    _assert_case(harness.case_delay_cbr())
