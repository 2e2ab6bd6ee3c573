"""The ns-2.35 twin of reference document 003 (validation/ns2/doc003.tcl) describes the
runs of experiments/003, and where no random draw separates the simulators it measures
what tcpsim measures.

`tcpsim reproduce 003 --ns2` runs every experiment in ns-2 too and puts ns-2's verdicts
beside ours. The first test pins down that the twin's arguments say what each
experiment file says (flows, bottleneck rate and buffer, the window control, RED's
thresholds, start times, access delays, the blackout, the sampling, the window, the run
time); when one of them changes, the other must. The others run the twin: E5's single
flow starts at 0 s, so nothing random separates the simulators and ns-2's counters and
recovery times must equal ours; and the multi-flow runs draw their starts from the seed.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from tcpsim import models, units
from tcpsim.api import run
from tcpsim.reproduce import load_document, make_plan
from tcpsim.reproduce.measures import handoff_measures, run_measures
from tcpsim.reproduce.ns2 import twin_commands, twin_measuring
from twin_args import twin_arguments

SCRIPT = Path(__file__).resolve().parents[1] / "validation" / "ns2" / "doc003.tcl"

#: Skip where ns-2 is missing, but never under CI (which installs it, .ci/run): there a
#: missing `ns` fails the tests instead of hiding them.
NS2 = pytest.mark.skipif(shutil.which("ns") is None and not os.environ.get("CI"),
                         reason="ns-2 (`ns`) is not on PATH: install the Debian/Ubuntu package `ns2`")


@pytest.fixture(scope="module")
def plan():
    return make_plan(load_document("003"))


@pytest.fixture(scope="module")
def quick_plan():
    return make_plan(load_document("003"), quick=True)


def _args(command):
    return twin_arguments(SCRIPT, command)


def _seconds(value) -> float:
    return units.parse(value)[0]


def _packets(limit: str) -> int:
    return int(limit.rstrip("p"))


def minimal_standard_delays(n: int) -> list:
    """E4's access delays as the twin draws them (its `access_delays`): d(i) = 5 + 10 ·
    x(i+1) / M ms to 1 us, x(0) = 1, x(k+1) = 16807 · x(k) mod M, M = 2^31 − 1."""
    m, x, out = 2**31 - 1, 1, []
    for _ in range(n):
        x = 16807 * x % m
        out.append(f"{5 + 10 * x / m:.3f}ms")
    return out


def _links(s):
    """(bottleneck, source access, sink access, flows) of a run's scenario: the
    dumbbell's, or E5's explicit s0 - r1 - r2 - d0."""
    flows = s["flow"][0]
    if "dumbbell" in s:
        d = s["dumbbell"]
        delays = d.get("access_delays", [d["access"]["delay"]] * d["pairs"])
        return d["bottleneck"], [{**d["access"], "delay": x} for x in delays], d["access"], flows
    by = {(l["from"], l["to"]): l for l in s["link"]}
    return by[("r1", "r2")], [by[("s0", "r1")]], by[("r2", "d0")], flows


def _variant(cc) -> str:
    if cc in (None, "reno"):
        return "reno"
    if cc == "vegas":
        return "vegas"
    if isinstance(cc, dict) and cc["kind"] == "reno" and (cc["increase_num"], cc["decrease_num"]) == (0.31, 0.875):
        return "gaimd"
    raise AssertionError(f"no twin agent for cc {cc!r}")


def _red_thresholds(queue, rate_bps: float):
    """RED's (min_th, max_th) in packets, the automatic ones as ns-2's initialize_params
    computes them (docs/models/red.md): min_th = max(5, target_delay · ptc / 2), ptc =
    rate / (8 · mean_packet_size), max_th = 3 · min_th."""
    if queue["min_th"] != "auto":
        return float(queue["min_th"]), float(queue["max_th"])
    assert queue["max_th"] == "auto"
    ptc = rate_bps / (8 * units.parse(queue["mean_packet_size"])[0])
    low = max(5.0, _seconds(queue["target_delay"]) * ptc / 2)
    return low, 3 * low


def test_every_run_has_a_twin_whose_arguments_describe_its_scenario(plan):
    commands = twin_commands(plan)
    measuring = twin_measuring(plan)
    no_twin = {(e.name, c.name) for e in plan.document.experiments for c in e.cases if c.no_twin}
    assert no_twin == {(e.name, c) for e in plan.document.experiments for c in ("reno_gamma", "reno_gamma_delta")
                       if c in [x.name for x in e.cases]}, "only Reno + γ (+ δ) lacks an ns-2 agent"
    assert set(commands) == {k for k in plan.runs if k[:2] not in no_twin}
    base_of = {e.name: e.variant_of or e.name for e in plan.document.experiments}
    assert {(base_of[k[0]], k[1]) for k in commands if k[1] == "tfrc"} == {
        (e, "tfrc") for e in ("e1_fairness", "e2_duration", "e3_queues", "e4_diverse_rtts")}, \
        "TFRC is a case of E1-E4 (Figs 1-9, 16) and of their readings, with its twin; not of E5 (Fig. 10 has none)"
    tcp = models.get("agent", "tcp")
    for key, command in commands.items():
        a, s = _args(command), _toml.loads(plan.runs[key].toml_text)
        bottleneck, sources, sink, flow = _links(s)
        n = flow.get("count", 1)
        assert int(a["flows"]) == n, key
        rate = a["rate"] or f"{n}Mb"
        assert units.parse(rate.replace("Mb", "Mbps"))[0] == units.parse(bottleneck["rate"])[0], key
        buffer = int(a["buffer"] or 10 * n)
        assert _packets(bottleneck["queue"]["limit"]) == buffer, key
        # the paper's buffer: the bandwidth-delay product, 80 ms x rate in 1000-byte packets
        assert buffer == round(0.08 * units.parse(bottleneck["rate"])[0] / 8000), key
        assert _packets(bottleneck["queue_reverse"]["limit"]) == 10000, key
        assert bottleneck["delay"] == "30ms" and sink["delay"] == "5ms", key
        assert {_packets(x["queue"]["limit"]) for x in [*sources, sink]} == {1000}, key
        if flow.get("type") == "tfrc":
            # Agent/TFRC -> Agent/TFRCSink at ns-2's defaults: no TCP key left on the flow
            # and no TFRC parameter set, so each is the model's default, which is ns-2's
            assert a["variant"] == "tfrc", key
            assert set(flow) <= set(models.FLOW_COMMON_KEYS), key
        else:
            assert a["variant"] == _variant(flow.get("cc")), key
            if a["variant"] == "vegas":
                # ns-2's Vegas agent: no header on the wire, a full-size SYN (experiments/004)
                assert (flow["header_size"], flow["full_size_syn"]) == ("0B", True), key
            assert flow["recovery"] == ("vegas" if a["variant"] == "vegas" else "reno"), key
            assert flow["receiver"] == "delayed", "the twin's sinks are Agent/TCPSink/DelAck"
            assert float(a["window"]) == flow.get("max_window", tcp.param("max_window").default), key
        queue = bottleneck["queue"]
        assert a["queue"] == queue["kind"], key
        if queue["kind"] == "red":
            # B/6 and B/2 (Sect. 4.1), as the twin sets thresh_ and maxthresh_
            low, high = _red_thresholds(queue, units.parse(bottleneck["rate"])[0])
            assert low == pytest.approx(buffer / 6, rel=1e-6) and high == pytest.approx(buffer / 2, rel=1e-6), key
            assert (queue["max_p"], queue["weight"], queue["mean_packet_size"]) == (0.1, 0.002, "1000B"), key
        uniform = re.fullmatch(r"uniform\(0s, (\S+)\)", flow.get("start", ""))
        assert a["starts"] == ("uniform" if uniform else "zero"), key
        if uniform:  # [0, 1) s, or the first 20 ms in the reading 'starts in the first round trip'
            assert float(a["start_window"]) == _seconds(uniform.group(1)), key
        if a["delays"] == "uniform":
            assert [x["delay"] for x in sources] == minimal_standard_delays(n), key
        else:
            assert {x["delay"] for x in sources} == {"5ms"}, key
        windows = (sink.get("error_model") or {}).get("windows")
        assert a["blackout"] == (":".join(str(_seconds(x)).rstrip("0").rstrip(".") for x in windows[0]) if windows else ""), key
        assert float(a["sample"]) == _seconds(s["monitor"]["interval"]), key
        assert float(a["T"]) == _seconds(s["simulation"]["duration"]), key
        assert int(a["seed"]) == key[3]
        ex = plan.document.experiment(key[0])
        assert measuring[key]["trace"] is False, "the twins of 003 write no trace"
        assert (measuring[key]["outage_s"] is not None) == (ex.outage_s is not None)


def test_e2s_twins_run_as_long_as_the_axis_says(plan):
    """E2's axis is the run time: each twin gets its run's own T, not the base's."""
    commands = twin_commands(plan)
    durations = {float(_args(c)["T"]) for k, c in commands.items() if k[0] == "e2_duration"}
    assert durations == {100.0 * k for k in range(1, 11)}


@NS2
@pytest.mark.parametrize("case", ["reno", "gaimd", "vegas"])
def test_the_handoff_twin_equals_our_run_to_the_packet(quick_plan, tmp_path, case):
    """E5: one flow from 0 s, nothing random: ns-2's counters and recovery time equal
    ours (measured: Reno 17 s, TCP(0.31, 0.875) 52 s, Vegas 19.5 s in both)."""
    from tcpsim.reproduce.ns2 import run_twin

    key = ("e5_handoff", case, None, 1)
    res = run(quick_plan.runs[key].toml_text, out=tmp_path)
    ours = {**run_measures(res), **handoff_measures(res, (20.0, 21.0))}
    theirs = run_twin(twin_commands(quick_plan)[key], twin_measuring(quick_plan)[key])["measures"]
    for metric in ("tcp_retransmits", "tcp_timeouts", "bottleneck_forced_drops", "recovery_s.tcp0"):
        assert theirs[metric] == ours[metric], metric
    assert theirs["tcp_goodput_mbps"] == pytest.approx(ours["tcp_goodput_mbps"], rel=1e-12)


@NS2
def test_the_twin_draws_its_starts_from_the_seed(quick_plan):
    """The multi-flow twins start each flow at a draw from [0, 1) s of an RNG seeded with
    seed=: the same distribution as tcpsim's start = "uniform(0s, 1s)", another seed
    other starts, the same seed the same."""
    from tcpsim.reproduce.ns2 import run_twin

    command = [*twin_commands(quick_plan)[("e3_queues", "reno", None, 1)][:-2], "T=1"]

    def starts(seed):
        out = run_twin([*command, f"seed={seed}"], {"trace": False, "samples": None, "outage_s": None})["stdout"]
        return [float(l.split("t=")[1]) for l in out.splitlines() if l.startswith("start ")]

    one, two = starts(1), starts(2)
    assert len(one) == 10 and all(0 <= t < 1 for t in one + two)
    assert one != two and starts(1) == one
    # the reading 'starts in the first round trip' (start_window=0.02): [0, 20 ms)
    first = run_twin([*command, "seed=1", "start_window=0.02"], {"trace": False, "samples": None, "outage_s": None})["stdout"]
    early = [float(l.split("t=")[1]) for l in first.splitlines() if l.startswith("start ")]
    assert len(early) == 10 and all(0 <= t < 0.02 for t in early) and max(early) > 0.01


@NS2
def test_a_twin_of_many_flows_gets_documents_003_metrics(quick_plan):
    """From the twin's sample lines: FI, WCF, CoV, STF and the normalized queue, each in
    its range (the statistics, not the numbers, are what the simulators share here)."""
    from tcpsim.reproduce.ns2 import run_twin

    key = ("e3_queues", "reno", None, 1)
    m = run_twin(twin_commands(quick_plan)[key], twin_measuring(quick_plan)[key])["measures"]
    assert 0.1 <= m["fairness_index"] <= 1 and 0 < m["worst_case_fairness"] <= 1
    assert 0.1 <= m["short_term_fairness"] <= 1 and m["cov"] > 0
    # Reno fills the 100-packet drop-tail buffer (99 wait beside the one sent)
    assert m["queue_norm_max"] == pytest.approx(0.99)
    assert "trace_sent" not in m, "no trace, so no trace metrics"


def test_the_twins_sample_lines_become_the_tables_our_metrics_read():
    """`sampled_results`: each flow's goodput over its active time, its in-order payload
    per interval (whole 1000-byte payloads of 1040-byte packets, the 40-byte SYN not
    counted, a sink that has not even the SYN at 0), and the bottleneck's queue."""
    from tcpsim.reproduce.ns2 import sampled_results

    sizes = "packet_size=1000 header_size=40 syn_size=40 agent=Agent/TCP/Reno"
    lines = ["start 0 t=0", "start 1 t=0.5",
             "sinks t=0.5 bytes=40,0", "qlen t=0.5 pkts=3",
             "sinks t=1 bytes=2120,1080", "qlen t=1 pkts=7",
             f"flow 0 bytes=2120 data_pkts=2 {sizes}", f"flow 1 bytes=1080 data_pkts=1 {sizes}"]
    res = sampled_results(lines, 1.0)
    assert res.flows.set_index("name")["goodput_bps"].to_dict() == {"tcp0": 16000.0, "tcp1": 16000.0}
    delivered = res.series("delivered_bytes")
    assert delivered.to_dict("list") == {"tcp0": [0.0, 2000.0], "tcp1": [0.0, 1000.0]}
    assert res.series("queue_pkts", ["r1->r2"])["r1->r2"].tolist() == [3.0, 7.0]
    assert sampled_results([l for l in lines if not l.startswith("sinks")], 1.0) is None


def test_a_tfrc_twins_sample_lines_count_whole_payloads_of_1032_byte_packets():
    """A TFRC flow's line (doc003.tcl's report_tfrc) has no SYN and a 32-byte header:
    its sink's bytes_ are 1032-byte packets of 1000 bytes of payload, as tcpsim counts a
    TFRC flow's delivered bytes; the twin's tcp_* measures leave TFRC flows out, as
    ours count only TCP flows."""
    from tcpsim.reproduce.ns2 import measures_from, sampled_results

    sizes = "packet_size=1000 header_size=32 syn_size=0 agent=Agent/TFRC"
    lines = ["start 0 t=0", "start 1 t=0",
             "sinks t=0.5 bytes=1032,0", "qlen t=0.5 pkts=1",
             "sinks t=1 bytes=3096,2064", "qlen t=1 pkts=2",
             f"flow 0 bytes=3096 data_pkts=3 {sizes}", f"flow 1 bytes=2064 data_pkts=2 {sizes}"]
    res = sampled_results(lines, 1.0)
    assert res.flows.set_index("name")["goodput_bps"].to_dict() == {"tcp0": 24000.0, "tcp1": 16000.0}
    assert res.series("delivered_bytes").to_dict("list") == {"tcp0": [1000.0, 2000.0], "tcp1": [0.0, 2000.0]}
    m = measures_from("\n".join(lines), None, 1.0)
    assert not {"tcp_goodput_mbps", "jain", "tcp_retransmits", "tcp_timeouts"} & set(m)


@NS2
def test_the_tfrc_twin_prints_the_sink_bytes_of_whole_packets(quick_plan):
    """variant=tfrc runs Agent/TFRC -> Agent/TFRCSink: each sink's bytes_ is a whole
    number of 1032-byte packets, no more than its sender sent, and the sample lines give
    document 003's metrics."""
    from tcpsim.reproduce.ns2 import run_twin

    key = ("e3_queues", "tfrc", None, 1)
    command = twin_commands(quick_plan)[key]
    assert "variant=tfrc" in command
    out = run_twin(command, twin_measuring(quick_plan)[key])
    flows = [l for l in out["stdout"].splitlines() if l.startswith("flow ")]
    assert len(flows) == 10 and all("agent=Agent/TFRC" in l for l in flows)
    for line in flows:
        f = dict(re.findall(r"(\w+)=(\S+)", line))
        assert int(f["bytes"]) % 1032 == 0 and 0 < int(f["bytes"]) // 1032 <= int(f["data_pkts"])
    m = out["measures"]
    assert 0.1 <= m["fairness_index"] <= 1 and 0 < m["queue_norm_mean"] <= 1


def test_a_twin_that_writes_no_trace_says_so_with_true_or_false(tmp_path):
    """[experiment.ns2] trace takes true or false only; the error names the file and key."""
    from tcpsim import ScenarioError
    from tcpsim.reproduce.spec import load_experiment

    text = (Path(__file__).resolve().parents[1] / "experiments" / "003" / "e3_queues.toml").read_text()
    bad = tmp_path / "e3_queues.toml"
    bad.write_text(text.replace("trace = false ", 'trace = "no" '))
    with pytest.raises(ScenarioError, match=r"e3_queues.toml, \[experiment.ns2\], key 'trace': expected true or false"):
        load_experiment(bad)
