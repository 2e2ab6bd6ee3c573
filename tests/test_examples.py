"""The examples gallery: every file in examples/ runs as its header says, and shows what
its header promises.

Each example starts with a header comment: what it shows (``Shows:``), what to look at in
the output (``Look at:``), the command that runs it (``Run:``) and the docs pages that
explain its models (``Models:``). Here

- every example's ``Run:`` commands run as written (through `tcpsim.cli.main`, from a
  scratch directory with examples/ linked in, as `tests/test_docs_commands.py` runs the
  docs' commands) but without ``--plot``, which would double the time of this module
  (the plots are tested in test_plots.py and by the README's commands), and one fact
  the header promises is checked on what they wrote (`FACTS`: one check per file, a
  new example needs one);
- every header names its own file in ``Run:`` and only docs pages that exist;
- README.md's gallery table lists every example;
- together the examples use every model of the catalogue (`tcpsim.models`), so a model
  added to the core without an example fails here.
"""

from __future__ import annotations

import re
import shlex
import struct
import tomllib
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Tuple

import pandas as pd
import pytest

import tcpsim
from tcpsim import cli, metrics, models, units
from tcpsim.sweep import load_sweep

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
PLACEHOLDERS = ("HOST", "SCHEDULER")  # a Dask scheduler the reader has; none is here


def _example_files() -> List[Path]:
    return sorted(EXAMPLES.glob("*.toml"))


def _is_sweep(path: Path) -> bool:
    return "sweep" in tomllib.loads(path.read_text(encoding="utf-8"))


def _header(path: Path) -> List[str]:
    """The comment lines at the top of the file, without their ``#``."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    return lines


def _field(header: List[str], name: str) -> List[str]:
    """The text of a header field (``Run:``) and of its continuation lines."""
    out: List[str] = []
    for i, line in enumerate(header):
        if line.startswith(f"{name}:"):
            out.append(line[len(name) + 1:].strip())
            for more in header[i + 1:]:
                if not more or re.match(r"^[A-Z][a-z ]*:", more):
                    break
                out.append(more)
    return out


def _run_commands(path: Path) -> List[str]:
    """The ``tcpsim`` commands of the ``Run:`` field, without trailing remarks (two or
    more spaces, then text) and without those that need a Dask scheduler."""
    commands = [re.split(r"\s{2,}", line)[0] for line in _field(_header(path), "Run")]
    return [c for c in commands if c.startswith("tcpsim ") and not any(p in c for p in PLACEHOLDERS)]


# ------------------------------------------------------------------- what each example shows

Fact = Callable[[Any, Path, Mapping[str, Any]], None]
FACTS: Dict[str, Fact] = {}


def fact(file_name: str) -> Callable[[Fact], Fact]:
    """Registers the check of one example: called with the run's `tcpsim.Results` (a sweep:
    its table), the output directory and the example's TOML document."""
    def register(check: Fact) -> Fact:
        FACTS[file_name] = check
        return check
    return register


def _flow(res, name: str) -> pd.Series:
    return res.flows.set_index("name").loc[name]


def _queue(res, name: str) -> pd.Series:
    return res.queues.set_index("queue").loc[name]


def _between(frame: pd.DataFrame, start: float, end: float) -> pd.DataFrame:
    return frame[(frame.index >= start) & (frame.index <= end)]


def _first_time_at_least(series: pd.Series, level: float) -> float:
    reached = series[series >= level]
    assert not reached.empty, f"{series.name} never reached {level}"
    return float(reached.index[0])


@fact("dumbbell.toml")
def _red_holds_the_average_between_its_thresholds(res, out, doc):
    red = doc["dumbbell"]["bottleneck"]["queue"]
    average = _between(res.series("red_avg_pkts"), 10.0, float("inf"))["r1->r2"].mean()
    assert red["min_th"] < average < red["max_th"]


@fact("sweep_red.toml")
def _every_grid_point_runs_with_every_seed(table, out, doc):
    seeds = doc["sweep"]["seeds"]
    assert len(table) == 36 and sorted(table["seed"].unique()) == seeds
    assert (table.groupby("flow[*].recovery").size() == 36 // 2).all()


@fact("traced.toml")
def _the_pcap_shows_each_ce_mark_of_the_queue(res, out, doc):
    trace_dir = out / doc["trace"].get("dir", "traces")
    ce_packets = _pcap_ecn_fields(trace_dir / "r1-r2.pcap").count(0b11)
    assert ce_packets == _queue(res, "r1->r2")["marks"] > 0
    assert (trace_dir / "trace.tr").stat().st_size > 0 and (trace_dir / "node-d0.pcap").exists()


def _pcap_ecn_fields(path: Path) -> List[int]:
    """The ECN field (low two bits of the IPv4 TOS byte) of every packet of a pcap file
    with Ethernet framing (docs/traces.md): 24-byte file header; per packet a 16-byte
    record header (captured length at offset 8), 14 bytes of Ethernet, then IPv4."""
    data = path.read_bytes()
    fields, at = [], 24
    while at < len(data):
        captured = struct.unpack_from("<I", data, at + 8)[0]
        tos = data[at + 16 + 14 + 1]
        fields.append(tos & 0b11)
        at += 16 + captured
    return fields


@fact("vegas_vs_reno.toml")
def _vegas_keeps_a_small_queue_alone_and_loses_to_reno(res, out, doc):
    reno_start = units.parse(_flow_table(doc, "reno")["start"])[0]
    beta = models.get("cc", "vegas").param("beta").default
    alone = _between(res.series("queue_pkts"), 2.0, reno_start - 0.1)["r1->r2"]
    assert alone.max() <= beta
    shared = _between(res.series("delivered_bytes"), reno_start + 2.0, float("inf")).sum()
    assert shared["reno"] > 4 * shared["vegas"]


@fact("red_n_vegas_reno.toml")
def _thresholds_follow_the_flows_and_only_reno_brings_drops(res, out, doc):
    queue = doc["dumbbell"]["bottleneck"]["queue"]
    beta = queue["beta"]
    reno_start = units.parse(_flow_table(doc, "reno")["start"])[0]
    n = res.series("red_n")["r1->r2"]
    assert sorted(n.unique()) == [2.0, 4.0, 5.0]          # pairs of Vegas, then Reno
    assert (res.series("red_min_th_pkts")["r1->r2"] == beta * n).all()
    assert (res.series("red_max_th_pkts")["r1->r2"] == (beta + 1) * n).all()
    drops = res.series("early_drops")["r1->r2"]
    assert _between(drops, 0.0, reno_start).sum() == 0 < _between(drops, reno_start, float("inf")).sum()


@fact("vegas_variants_vs_reno.toml")
def _each_vegas_variant_holds_more_of_the_link_than_vegas_against_reno(res, out, doc):
    reno_start = units.parse(_flow_table(doc, "reno")["start"])[0]
    shared = _between(res.series("delivered_bytes"), reno_start + 2.0, float("inf")).sum()
    for variant in ("new_vegas", "vegas_a", "vegas_plus"):
        assert shared[variant] > 1.3 * shared["vegas"], (variant, shared.to_dict())


def _flow_table(doc: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return next(f for f in doc["flow"] if f.get("name") == name)


@fact("sack_fack.toml")
def _sack_and_fack_recover_without_a_timeout(res, out, doc):
    flows = res.flows.set_index("name")
    assert flows.loc["newreno", "timeouts"] >= 1
    for sack in ("sack1", "fack"):
        assert flows.loc[sack, "timeouts"] == 0
        assert flows.loc[sack, "goodput_bps"] > max(flows.loc["newreno", "goodput_bps"],
                                                    flows.loc["tahoe", "goodput_bps"])


@fact("linux_profile.toml")
def _prr_repairs_the_burst_without_a_timeout(res, out, doc):
    flows = res.flows.set_index("name")
    assert (flows.loc["linux", "timeouts"], flows.loc["linux_crb", "timeouts"]) == (0, 0)
    assert flows.loc["linux_newreno", "timeouts"] >= 1 and flows.loc["ns2", "timeouts"] >= 1
    assert flows.loc["linux", "retransmits"] < flows.loc["linux_newreno", "retransmits"]
    assert flows.loc["linux", "goodput_bps"] > 1.2 * max(flows.loc["linux_newreno", "goodput_bps"],
                                                         flows.loc["ns2", "goodput_bps"])


@fact("ecn_red.toml")
def _red_marks_instead_of_dropping(res, out, doc):
    bottleneck = _queue(res, "r1->r2")
    assert bottleneck["marks"] > 0
    assert bottleneck["early_drops"] == 0 and bottleneck["overflow_drops"] == 0
    assert (res.flows["ecn_reductions"] > 0).all() and (res.flows["retransmits"] == 0).all()


@fact("subnets_red_ecn.toml")
def _the_subnet_with_the_shortest_round_trip_gets_the_most(res, out, doc):
    hosts = [s["hosts"] for s in doc["dumbbell"]["subnets"]]
    assert res.flows["group"].tolist() == [f"subnet{k}" for k, n in enumerate(hosts) for _ in range(n)]
    assert set(res.timeseries["entity"]) == {"subnet0", "subnet1", "subnet2", "r1->r2"}
    goodput = res.group_series().sum()
    assert goodput["subnet0"] > goodput["subnet1"] > goodput["subnet2"] > 0
    assert (res.group_series("received_bytes").sum() >= goodput).all()
    assert _queue(res, "r1->r2")["marks"] > 0


@fact("ecn_over_aqm.toml")
def _fecn_and_mffecn_raise_the_long_rtt_share(res, out, doc):
    share = {}
    for k, kind in enumerate(["ecn_red", "mecn_red", "fecn_red", "mffecn_red"]):
        bottleneck = _queue(res, f"a{k}->b{k}")
        assert bottleneck["kind"] == kind and bottleneck["marks"] > 0
        assert bottleneck["early_drops"] == 0 and bottleneck["overflow_drops"] == 0
        goodput = res.flows.set_index("name")["goodput_bps"]
        long = goodput[goodput.index.str.startswith(f"{kind}_long")].sum()
        short = goodput[goodput.index.str.startswith(f"{kind}_short")].sum()
        share[kind] = long / short
    assert share["ecn_red"] < 0.5 and share["mecn_red"] < 0.5, share
    assert share["fecn_red"] > 0.75 and share["mffecn_red"] > 0.75, share


@fact("dred_vs_ecn_dred.toml")
def _dred_holds_the_target_and_ecn_dred_loses_nothing(res, out, doc):
    dred, ecn_dred = _queue(res, "a0->b0"), _queue(res, "a1->b1")
    assert dred["kind"] == "dred" and ecn_dred["kind"] == "ecn_dred"
    assert 0.9 * 293 <= dred["mean_length_pkts"] <= 1.1 * 293 and dred["early_drops"] > 0
    assert ecn_dred["mean_length_pkts"] > 293 and ecn_dred["marks"] > 0
    assert ecn_dred["early_drops"] == 0 and ecn_dred["overflow_drops"] == 0
    links = res.links.set_index("link")
    assert links.loc["a0->b0", "utilization"] >= 0.99 and links.loc["a1->b1", "utilization"] >= 0.99


@fact("pie_vs_droptail.toml")
def _pie_holds_15_ms_where_droptail_fills(res, out, doc):
    pie, droptail = _queue(res, "a0->b0"), _queue(res, "a1->b1")
    assert pie["kind"] == "pie" and droptail["kind"] == "droptail"
    # 15 ms at 10 Mbps is 18.75 waiting packets of 1000 B.
    assert 0.6 * 18.75 <= pie["mean_length_pkts"] <= 1.4 * 18.75 and pie["early_drops"] > 0
    assert droptail["mean_length_pkts"] > 10 * pie["mean_length_pkts"]
    links = res.links.set_index("link")
    assert links.loc["a0->b0", "utilization"] >= 0.95 and links.loc["a1->b1", "utilization"] >= 0.95


@fact("bbr_deep_buffer.toml")
def _bbr_fills_the_link_with_the_queue_near_empty_where_reno_fills_the_buffer(res, out, doc):
    bbr, reno = _queue(res, "a0->b0"), _queue(res, "a1->b1")
    # Measured: BBR 2.3 packets waiting on average (1.8 ms; base RTT 60 ms), Reno 503.
    assert bbr["mean_length_pkts"] < 5 and reno["mean_length_pkts"] > 100 * bbr["mean_length_pkts"]
    links = res.links.set_index("link")
    assert links.loc["a0->b0", "utilization"] >= 0.95 and links.loc["a1->b1", "utilization"] >= 0.95
    # ProbeRTT: cwnd down to 4 packets about every 10 s (measured at 10.07, 20.43, 30.80 s).
    cwnd = _between(res.series("cwnd"), 5.0, float("inf"))["bbr"]
    probe_rtt = cwnd[(cwnd <= 4) & (cwnd.shift(1) > 4)].index
    assert len(probe_rtt) == 3 and all(10.0 <= b - a <= 10.6 for a, b in zip(probe_rtt, probe_rtt[1:]))
    # The gain cycle: the pacing rate is above 0.99 x 10 Mb/s only in the 1.25 phases.
    pacing = _between(res.series("pacing_rate_bps"), 5.0, float("inf"))["bbr"]
    assert 0.95 * 9.9e6 <= pacing.median() <= 1.01 * 9.9e6 and pacing.max() >= 1.2 * 9.9e6


@fact("bbr3_vs_bbr.toml")
def _bbr3_bounds_its_inflight_by_loss_where_bbr_v1_overflows_the_shallow_buffer(res, out, doc):
    flows = res.flows.set_index("name")
    v1, v3 = flows.loc[["bbr_a", "bbr_b"]], flows.loc[["bbr3_a", "bbr3_b"]]
    # Measured (10-40 s): BBRv1 3672 retransmissions for 8.49 Mb/s in all; BBRv3 0 for 9.39.
    assert v1["retransmits"].sum() > 1000 and v3["retransmits"].sum() < 0.01 * v1["retransmits"].sum()
    assert v3["goodput_bps"].sum() > v1["goodput_bps"].sum() and v3["goodput_bps"].sum() > 0.9e7
    assert _queue(res, "a1->b1")["overflow_drops"] < 0.01 * _queue(res, "a0->b0")["overflow_drops"]


@fact("drr_fairness.toml")
def _drr_shares_the_link_evenly(res, out, doc):
    sources = res.flows
    fair_share = units.parse(doc["dumbbell"]["bottleneck"]["rate"])[0] / len(sources)
    assert metrics.jain_index(sources["goodput_bps"]) >= 0.98
    assert _flow(res, "cbr_hog")["goodput_bps"] < 1.2 * fair_share
    # The header's counterpoint: a DropTail queue lets the CBR source take over 2 shares.
    droptail = (EXAMPLES / "drr_fairness.toml").read_text(encoding="utf-8").replace(
        'queue = { kind = "drr", limit = "50000B", quantum = "1040B" }',
        'queue = { kind = "droptail", limit = "50p" }')
    assert _flow(tcpsim.run(droptail), "cbr_hog")["goodput_bps"] > 2 * fair_share


@fact("codel_bufferbloat.toml")
def _codel_keeps_the_queueing_delay_near_its_target(res, out, doc):
    codel = _queue(res, "r1->r2")
    assert codel["kind"] == "codel" and codel["early_drops"] > 0
    assert codel["mean_sojourn_s"] < 0.015
    assert res.links.set_index("link").loc["r1->r2", "utilization"] > 0.9
    # The header's counterpoint: a 1000-packet DropTail buffer holds half a second.
    droptail = (EXAMPLES / "codel_bufferbloat.toml").read_text(encoding="utf-8").replace(
        'queue = "codel"', 'queue = { kind = "droptail", limit = "1000p" }')
    assert _queue(tcpsim.run(droptail), "r1->r2")["mean_sojourn_s"] > 0.3


@fact("fq_codel_isolation.toml")
def _fq_codel_isolates_the_cbr_source_and_shares_evenly(res, out, doc):
    fair_share = units.parse(doc["dumbbell"]["bottleneck"]["rate"])[0] / len(res.flows)
    tcp = res.flows[res.flows["name"].str.startswith("tcp")]
    assert _flow(res, "cbr_hog")["goodput_bps"] < 1.35 * fair_share
    assert metrics.jain_index(tcp["goodput_bps"]) >= 0.98
    assert (tcp["rtt_mean_s"] < 0.2).all()
    droptail = (EXAMPLES / "fq_codel_isolation.toml").read_text(encoding="utf-8").replace(
        'queue = { kind = "fq_codel", perfect = true }', 'queue = { kind = "droptail", limit = "100p" }')
    assert _flow(tcpsim.run(droptail), "cbr_hog")["goodput_bps"] > 2.5 * fair_share


@fact("handoff_blackout.toml")
def _nothing_is_delivered_during_the_blackout(res, out, doc):
    wireless = next(link for link in doc["link"] if "error_model" in link
                    and link["error_model"]["kind"] == "blackout")
    start, end = (units.parse(t)[0] for t in wireless["error_model"]["windows"][0])
    # Packets queued at base_a when the window opens still cross it: 50 packets at 2 Mbps
    # take 0.21 s, so the check starts 0.3 s into the window.
    delivered = res.series("delivered_bytes")
    during = _between(delivered, start + 0.3, end)
    assert len(during) >= 5
    assert (during["handoff"] == 0).all() and during["lossy"].sum() > 0
    assert _between(delivered, 0.0, start)["handoff"].sum() > 0
    assert _between(delivered, end + 2.0, float("inf"))["handoff"].sum() > 0
    assert _flow(res, "handoff")["timeouts"] > 0
    links = res.links.set_index("link")
    assert links.loc["base_a->mobile_a", "error_drops"] > 0 and links.loc["base_b->mobile_b", "error_drops"] > 0


@fact("quick_vegas_fast.toml")
def _each_fills_the_pipe_at_its_own_pace_and_fast_queues_alpha(res, out, doc):
    cwnd = res.series("cwnd")
    reached = {flow: _first_time_at_least(cwnd[flow], 120) for flow in cwnd}
    assert reached["fast"] < reached["quick_vegas"] < reached["vegas"]
    alpha = _flow_table(doc, "fast")["cc"]["alpha"]
    fast_queue = _between(res.series("queue_pkts"), 2.0, float("inf"))["r_fast->d_fast"]
    assert alpha - 4 <= fast_queue.min() and fast_queue.max() <= alpha
    assert (res.flows["retransmits"] == 0).all()


@fact("reno_gamma_vs_reno.toml")
def _reno_gamma_holds_the_queue_under_six_tenths_where_reno_fills_it(res, out, doc):
    after_slow_start = 15.0
    queue = _between(res.series("queue_pkts"), after_slow_start, float("inf"))
    drops = _between(res.series("overflow_drops"), after_slow_start, float("inf"))
    bottleneck = next(link for link in doc["link"] if (link["from"], link["to"]) == ("r1_gamma", "r2_gamma"))
    buffer = int(bottleneck["queue"]["limit"].removesuffix("p"))
    assert queue["r1_gamma->r2_gamma"].max() <= 0.6 * buffer
    assert drops["r1_gamma->r2_gamma"].sum() == 0
    assert queue["r1_reno->r2_reno"].max() >= 0.95 * buffer
    assert drops["r1_reno->r2_reno"].sum() > 0


@fact("cubic_vs_reno.toml")
def _cubic_takes_more_than_twice_renos_share_on_a_long_fat_path(res, out, doc):
    goodput = res.flows.set_index("name")["goodput_bps"]
    assert goodput["cubic"] > 2 * goodput["reno"]
    bottleneck = units.parse(doc["dumbbell"]["bottleneck"]["rate"])[0]
    assert goodput.sum() > 0.9 * bottleneck


@fact("tfrc_vs_reno.toml")
def _tfrc_is_smoother_than_reno(res, out, doc):
    samples = metrics.sampled_throughput(res.timeseries)
    cov = samples.std(ddof=0) / samples.mean()
    tfrc = [name for name in samples if name.startswith("tfrc")]
    reno = [name for name in samples if name.startswith("reno")]
    assert len(tfrc) == len(reno) == 2
    assert cov[tfrc].max() < 0.5 * cov[reno].min()
    goodput = res.flows.set_index("name")["goodput_bps"]
    assert goodput[tfrc].min() > goodput[reno].max()


@fact("parking_lot.toml")
def _the_long_flow_gets_far_less_than_the_cross_flows(res, out, doc):
    goodput = res.flows.set_index("name")["goodput_bps"]
    cross = goodput.drop("long")
    assert len(cross) == 3 and goodput["long"] < 0.5 * cross.min()


@fact("sweep_seeds.toml")
def _seeds_vary_the_run_and_ecn_turns_drops_into_marks(table, out, doc):
    assert len(table) == 2 * len(doc["sweep"]["seeds"])
    ecn = table[table["flow[*].ecn"]]
    plain = table[~table["flow[*].ecn"]]
    assert (ecn["marks"] > 0).all() and (ecn["early_drops"] == 0).all()
    assert (plain["marks"] == 0).all() and (plain["early_drops"] > 0).all()
    for _, point in table.groupby("flow[*].ecn"):
        assert point["goodput_bps"].nunique() > 1, "every seed gave the same run"


@fact("sweep_groups.toml")
def _groups_split_the_goodput_by_recovery(table, out, doc):
    assert len(table) == 4 * len(doc["sweep"]["seeds"])
    shares = table["reno.goodput_share"] + table["newreno.goodput_share"]
    assert ((shares - 1).abs() < 1e-9).all(), "the two groups hold every flow's goodput"
    assert ((table["reno.flows"] == 4) & (table["newreno.flows"] == 4)).all()
    assert ((table["reno.jain_index"] > 0) & (table["reno.jain_index"] <= 1)).all()


@fact("link_failover.toml")
def _failover_reroutes_and_the_rate_change_sets_the_bottleneck(res, out, doc):
    links = res.links.set_index("link")
    assert links.loc["r1->a", "down_drops"] > 0 and links.loc["r1->b", "packets_sent"] > 0
    ts = res.timeseries
    delivered = ts[(ts["entity"] == "bulk") & (ts["metric"] == "delivered_bytes")]

    def mbps(start: float, end: float) -> float:  # delivered_bytes: per 100 ms interval
        window = delivered[(delivered["time_s"] > start) & (delivered["time_s"] <= end)]
        return window["value"].sum() * 8 / (end - start) / 1e6

    assert mbps(5, 8) > 1.0, "rerouted over b while r1-a is down"
    assert 1.0 < mbps(13, 16) <= 2.0 * 1.01, "s->r1 at 2 Mbps is the bottleneck"
    assert mbps(17, 20) > 8.0


# ------------------------------------------------------------------------------ the tests


def test_every_example_has_a_fact_check():
    names = {p.name for p in _example_files()}
    assert names, "examples/ is empty"
    assert names == set(FACTS), (f"examples without a check in FACTS: {sorted(names - set(FACTS))}; "
                                 f"checks of missing files: {sorted(set(FACTS) - names)}")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gallery")
    (root / "examples").symlink_to(EXAMPLES)
    return root


def _output_dir(command: str) -> Path:
    """Where a ``tcpsim run --out DIR`` or ``tcpsim sweep SPEC`` command writes."""
    words = shlex.split(command)
    if words[1] == "sweep":
        return Path("results") / "sweeps" / Path(words[2]).stem
    assert "--out" in words, f"the Run: command should write its results with --out DIR: {command}"
    return Path(words[words.index("--out") + 1])


@pytest.mark.parametrize("path", _example_files(), ids=lambda p: p.name)
def test_example_runs_as_its_header_says_and_shows_its_fact(path, scratch, monkeypatch, capsys):
    monkeypatch.chdir(scratch)
    commands = _run_commands(path)
    assert commands, f"{path.name}: no tcpsim command in its Run: field"
    for command in commands:
        words = [w for w in shlex.split(command) if w != "--plot"]
        assert cli.main(words[1:]) == 0, command
    capsys.readouterr()
    out = scratch / _output_dir(commands[0])
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    results = load_sweep(out) if _is_sweep(path) else tcpsim.load_results(out)
    FACTS[path.name](results, out, doc)


@pytest.mark.parametrize("path", _example_files(), ids=lambda p: p.name)
def test_example_header_says_what_to_look_at_and_where_the_docs_are(path):
    header = _header(path)
    assert header and header[0], f"{path.name}: no header comment"
    for name in ("Shows", "Look at", "Run", "Models"):
        assert _field(header, name), f"{path.name}: the header has no '{name}:'"
    assert any(f"examples/{path.name}" in c for c in _run_commands(path))
    page = re.compile(r"docs/[\w./-]+\.md")
    assert page.search("\n".join(_field(header, "Models"))), f"{path.name}: 'Models:' names no docs page"
    missing = [p for p in page.findall("\n".join(header)) if not (REPO / p).exists()]
    assert not missing, f"{path.name} names docs pages that do not exist: {missing}"


def test_readme_gallery_lists_every_example():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| \[`?examples/([\w.-]+\.toml)`?\]\(examples/\1\) \| \S", readme, re.M))
    assert listed == {p.name for p in _example_files()}


def _tables(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every table of a TOML document, nested ones included."""
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from _tables(value)
    elif isinstance(node, list):
        for value in node:
            yield from _tables(value)


def _model_name(choice: Any) -> str:
    """The model a scenario value selects: ``"vegas"`` or ``{ kind = "vegas", ... }``."""
    return choice["kind"] if isinstance(choice, Mapping) else choice


def _models_used(doc: Mapping[str, Any]) -> Iterator[Tuple[str, str]]:
    """(family id, model) of every model a scenario selects: a flow's by name or by
    default (as the core's reader decides, `models.default_in`), a link's by name."""
    agent = models.family("agent")
    for flow in doc.get("flow", []):
        source = flow.get(agent.key, agent.default)
        yield agent.id, source
        for key in models.find(agent.id, source).relations.selects:
            fam = next(f for f in models.families() if f.key == key)
            yield fam.id, _model_name(flow.get(fam.key, models.default_in(fam, flow)))
    for table in _tables({k: v for k, v in doc.items() if k != "flow"}):
        for key, fam in models.slot_keys("link"):
            if key in table:
                yield fam.id, _model_name(table[key])


def test_the_examples_use_every_model_of_the_catalogue():
    used = set()
    for path in _example_files():
        if not _is_sweep(path):
            used |= set(_models_used(tomllib.loads(path.read_text(encoding="utf-8"))))
    registered = {(m.family.id, m.name) for m in models.models()}
    assert registered - used == set(), "models that no example uses"
