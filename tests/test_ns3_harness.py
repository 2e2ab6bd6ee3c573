"""The ns-3 harness's own rules, without ns-3 (validation/ns3/harness.py): reading a case
file into the ns-3 network, the queue-size mapping, the waiting-time measure."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "tcpsim_ns3_harness_rules", REPO / "validation" / "ns3" / "harness.py")
harness = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = harness
_spec.loader.exec_module(harness)

NEWRENO = harness.CASES["NEWRENO"].toml


def test_the_newreno_case_reads_into_the_ns3_network():
    network, tcp, receiver = harness.ns3_network(NEWRENO, 5.0)
    assert network["pairs"] == 4
    assert network["access_delays"] == ["1ms", "5ms", "12ms", "25ms"]
    assert network["starts_s"] == pytest.approx([0.0, 0.1, 0.2, 0.3])
    assert network["duration_s"] == 30.0
    # 50p in tcpsim (49 waiting + 1 on the wire) = 48 in the disc + 1 device queue + 1 wire
    assert network["access_disc_limit"] == 48
    assert tcp == {"recovery_type": "ns3::TcpClassicRecovery", "segment_bytes": 1000, "initial_window": 10,
                   "max_window": 1000, "min_rto": "200ms", "clock_granularity": "1ms", "limited_transmit": True}
    assert receiver["sack"] is True
    defaults = harness.ns3_tcp_defaults(tcp, receiver, "ns3::TcpNewReno")
    assert defaults["ns3::TcpSocketBase::Sack"] == "true"
    assert defaults["ns3::TcpSocket::DelAckCount"] == "1"
    assert defaults["ns3::TcpSocket::RcvBufSize"] == "1000000"
    assert harness.CASES["NEWRENO"].ns3_disc_attributes == {"MaxSize": "48p"}


def test_the_linux_case_reads_the_profiles_values_from_the_catalogue():
    # initial_window, min_rto, clock_granularity, limited_transmit are not written in the
    # case file: they come from profile = "linux", as the scenario reader gives them.
    text = harness.CASES["NEWRENO-LINUX"].toml.read_text()
    assert "initial_window" not in text and "min_rto" not in text
    network, tcp, receiver = harness.ns3_network(harness.CASES["NEWRENO-LINUX"].toml, 5.0)
    assert tcp["recovery_type"] == "ns3::TcpPrrRecovery"
    assert (tcp["initial_window"], tcp["min_rto"], tcp["clock_granularity"]) == (10, "200ms", "1ms")
    defaults = harness.ns3_tcp_defaults(tcp, receiver, "ns3::TcpNewReno")
    assert defaults["ns3::TcpL4Protocol::RecoveryType"] == "ns3::TcpPrrRecovery"
    assert defaults["ns3::TcpSocket::DelAckCount"] == "2"


def test_rack_is_refused_for_ns3(tmp_path):
    bad = tmp_path / "rack.toml"
    bad.write_text(harness.CASES["NEWRENO-LINUX"].toml.read_text().replace('recovery = "prr"', 'recovery = { kind = "prr", rack = true }'))
    with pytest.raises(harness.HarnessError, match="no RACK-TLP"):
        harness.ns3_network(bad, 5.0)


def test_without_sack_ns3_gets_sack_off():
    network, tcp, receiver = harness.ns3_network(harness.CASES["NEWRENO-NOSACK"].toml, 5.0)
    assert harness.ns3_tcp_defaults(tcp, receiver, "ns3::TcpNewReno")["ns3::TcpSocketBase::Sack"] == "false"


def test_disc_limit_leaves_room_for_the_device_queue_and_the_wire():
    assert harness.disc_limit(50) == 48
    assert harness.disc_limit(3) == 1


def test_aqm_disc_limit_leaves_room_for_the_device_queue():
    # an AQM's limit counts the waiting packets only: N waiting = N − 1 in the disc + 1 device queue
    assert harness.aqm_disc_limit(26) == 25
    assert harness.CASES["PIE"].ns3_disc_attributes == {"MaxSize": "25p"}
    assert harness.CASES["PIE-1000P"].ns3_disc_attributes == {"MaxSize": "1000p"}
    assert harness.CASES["FQ-CODEL"].ns3_disc_attributes == {"MaxSize": "10240p"}
    # a byte limit keeps ns-3's default MaxSize (1500000 B), which the file's comment names
    assert harness.CASES["CODEL"].ns3_disc_attributes == {}


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('min_rto = "200ms"\n', ""), "'min_rto' is missing"),
    (lambda t: t.replace('header_size = "42B"', 'header_size = "40B"'), 'header_size: expected "42B"'),
    (lambda t: t.replace('recovery = "sack1"', 'recovery = "newreno"'), "pairs newreno with SACK off"),
    (lambda t: t.replace('count = 4', 'count = 3'), "count must equal [dumbbell] pairs (4)"),
    (lambda t: t.replace('start = "0s"', 'start = "soon"'), "expected a time such as"),
])
def test_a_case_file_missing_what_ns3_needs_is_refused_by_name(tmp_path, edit, message):
    bad = tmp_path / "bad.toml"
    bad.write_text(edit(NEWRENO.read_text()))
    with pytest.raises(harness.HarnessError) as err:
        harness.ns3_network(bad, 5.0)
    assert str(bad) in str(err.value)
    assert message in str(err.value)


def test_waits_pair_arrival_and_transmission_start_by_uid(tmp_path):
    trace = tmp_path / "trace.tr"
    # uid 1 arrives before the window (not counted), uid 2 waits 0.5 s, uid 3 is
    # dropped (no "-"), uid 4 waits 0.25 s
    trace.write_text("\n".join([
        "+ 0.5 0 1 tcp 1042 ------- 0 2.0 3.0 1 1",
        "- 1.5 0 1 tcp 1042 ------- 0 2.0 3.0 1 1",
        "+ 1.0 0 1 tcp 1042 ------- 0 2.0 3.0 2 2",
        "+ 1.1 0 1 tcp 1042 ------- 0 2.0 3.0 3 3",
        "d 1.1 0 1 tcp 1042 ------- 0 2.0 3.0 3 3",
        "+ 1.25 0 1 tcp 1042 ------- 0 2.0 3.0 4 4",
        "- 1.5 0 1 tcp 1042 ------- 0 2.0 3.0 2 2",
        "- 1.5 0 1 tcp 1042 ------- 0 2.0 3.0 4 4",
    ]) + "\n")
    assert harness.trace_waits(trace, since_s=1.0) == pytest.approx([0.5, 0.25])


def test_waits_refuse_a_trace_of_two_links(tmp_path):
    trace = tmp_path / "trace.tr"
    trace.write_text("+ 1.0 0 1 tcp 1042 ------- 0 2.0 3.0 2 2\n+ 1.0 1 0 ack 42 ------- 0 3.0 2.0 2 5\n")
    with pytest.raises(harness.HarnessError, match="one traced link direction"):
        harness.trace_waits(trace, since_s=0.0)


def test_p95_is_the_nearest_rank():
    values = [float(v) for v in range(1, 21)]  # 1..20: 95 % of 20 = 19 values at or below
    assert harness.percentile(values, 0.95) == 19.0
    assert harness.percentile([3.0], 0.95) == 3.0


def test_a_check_fails_beyond_its_tolerance_and_on_nan():
    assert harness.Check("x", 100.0, 101.9, "rel", 0.02).ok
    assert not harness.Check("x", 100.0, 102.1, "rel", 0.02).ok
    assert not harness.Check("x", 100.0, float("nan"), "rel", 0.02).ok


def test_ns3_drops_split_by_the_discs_reasons():
    raw = {"sink_bytes": [1000], "waits_s": [0.01], "fast_recoveries": [0], "timeouts": [0],
           "bottleneck_drops": 10, "bottleneck_arrivals": 100, "bottleneck_marks": 0,
           "device_queue_drops": 0,
           "drop_reasons": {"Forced drop": 3, "Unforced drop": 5, "Overlimit drop": 1,
                            "(Dropped by child queue disc) Target exceeded drop": 1}}
    m = harness.ns3_metrics(raw, 1.0)
    assert (m["bottleneck_overflow_drops"], m["bottleneck_early_drops"]) == (4.0, 6.0)


CUBIC = harness.CASES["CUBIC"].toml


def test_the_cubic_case_sets_ns3_tcpcubic_from_its_cc_table_with_hystart_off():
    defaults = harness.ns3_cc_defaults(CUBIC, "ns3::TcpCubic")
    assert defaults == {"ns3::TcpCubic::C": "0.4", "ns3::TcpCubic::Beta": "0.7",
                        "ns3::TcpCubic::FastConvergence": "true", "ns3::TcpCubic::TcpFriendliness": "true",
                        "ns3::TcpCubic::HyStart": "false"}
    assert harness.ns3_cc_defaults(NEWRENO, "ns3::TcpNewReno") == {}


@pytest.mark.parametrize("name", sorted(harness.CASES))
def test_every_case_names_the_window_control_its_ns3_socket_type_is_compared_with(name):
    # run_ns3 reads these for every case it is given: one refused case fails them all
    case = harness.CASES[name]
    harness.ns3_cc_defaults(case.toml, case.ns3_socket_type)


def test_a_case_whose_window_control_differs_from_its_ns3_socket_type_is_refused(tmp_path):
    bad = tmp_path / "case.toml"
    bad.write_text(harness.CASES["BBR"].toml.read_text().replace('kind = "bbr"', 'kind = "cubic"'))
    with pytest.raises(harness.HarnessError, match="'cubic' with ns-3 ns3::TcpBbr; expected \"bbr\""):
        harness.ns3_cc_defaults(bad, "ns3::TcpBbr")


@pytest.mark.parametrize("edit, message", [
    (("beta = 0.7, ", ""), "'beta' is missing"),
    (('slow_start = "standard"', 'slow_start = "hystart++"'), "no HyStart++"),
])
def test_a_cubic_case_without_every_parameter_or_with_hystart_plus_plus_is_refused(tmp_path, edit, message):
    bad = tmp_path / "case.toml"
    bad.write_text(CUBIC.read_text().replace(*edit))
    with pytest.raises(harness.HarnessError, match=message):
        harness.ns3_cc_defaults(bad, "ns3::TcpCubic")


def test_resample_takes_the_value_in_force_at_each_step():
    changes = [(0.004, 10.0), (0.012, 11.0), (0.013, 12.0), (0.035, 5.0)]
    assert harness.resample(changes, 0.010, 0.040) == [(0.01, 10.0), (0.02, 12.0), (0.03, 12.0), (0.04, 5.0)]


def _cubic_epochs(count: int, step: float = 0.01):
    """A window following RFC 9438's curve (C 0.4, β 0.7) through `count` losses at W =
    100, 101, 102, ...: after the loss at W, W_max = W (above the last one: no fast
    convergence), K = ∛(0.3·W / 0.4); the next loss comes when the curve reaches W + 1,
    ∛(1 / 0.4) = 1.357 s after K. Returns the samples and each epoch's K and length."""
    samples, ks, lengths, t = [], [], [], 0.0
    for i in range(count):
        w = 100.0 + i
        k = (0.3 * w / 0.4) ** (1 / 3)
        length = k + (1 / 0.4) ** (1 / 3)
        times = [step * j for j in range(1, int(length / step) + 1)] + [length]  # the loss's W last
        samples += [(t + since, 0.4 * (since - k) ** 3 + w) for since in times]
        ks.append(k)
        lengths.append(length)
        t += length
    return samples, ks, lengths


def test_window_shape_finds_each_reduction_and_the_time_to_regain_w_max_over_k():
    # Every epoch regains its W_max at its K (within a sample): regain / K = 1; the
    # epochs last K + 1.357 s (K = 4.217 s at W = 100).
    samples, ks, lengths = _cubic_epochs(8)
    shape = harness.window_shape(samples, 1.0, 0.4, 0.7)
    measured = lengths[1:-1]  # between the first and the last reduction
    assert shape["epoch_mean_s"] == pytest.approx(sum(measured) / len(measured), abs=0.011)
    assert shape["regain_over_k"] == pytest.approx(1.0, abs=0.02 / ks[0])
    assert shape["epochs"] == 6 and shape["regain_epochs"] == 6
