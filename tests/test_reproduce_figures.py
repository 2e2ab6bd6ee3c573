"""The reproduction reports' figures (issue 17, "Figures"): every figure kind drawn from
real runs of a tiny document, checked through the figures themselves (axis labels in
words from `tcpsim.reproduce.labels`, never a measurement's internal name; the
utilization figure from the link, never above the link rate) and through the files the
report writes (PNG at 150 dpi or more, the `--format` copies as PDF or SVG)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tcpsim.cli import main as cli_main
from tcpsim.reproduce import figures, reproduce
from tcpsim.reproduce.checks import Measurements
from tcpsim.reproduce.labels import MEASURE_LABELS, measure_label
from tcpsim.reproduce.measures import read_trace, trace_measures

DOCUMENT = """\
[document]
id = "tiny"
title = "A tiny document with a figure of every kind"
short = "tiny"
citation = "a test of tcpsim"
seeds = 1
experiments = ["ex"]
assumptions = []
"""

EXPERIMENT = """\
[experiment]
title = "two TCP flows through RED, two bottleneck rates"
section = "none"
axis = { key = "dumbbell.bottleneck.rate", name = "bottleneck rate", values = ["4Mbps", "8Mbps"] }
windows = [[0, 1.5], [1.5, 3]]
[experiment.events]
times = [0]
base_rtt_s = 0.03
[experiment.samples]
from_s = 1
every_s = 0.5
buffer_pkts = 30
[experiment.handoff]
outage_s = [1, 1.5]

[experiment.cases.reno]
label = "Reno"
set = { "flow[*].cc" = "reno" }
[experiment.cases.vegas]
label = "Vegas"
set = { "flow[*].cc" = "vegas", "flow[*].recovery" = "vegas" }

[[figure]]
id = "throughput"
caption = "Throughput of the TCP flows"
kind = "throughput"
at = "4Mbps"
[[figure]]
id = "cwnd"
caption = "Congestion windows"
kind = "cwnd"
at = "4Mbps"
[[figure]]
id = "queue"
caption = "Bottleneck queue"
kind = "queue"
at = "4Mbps"
[[figure]]
id = "utilization"
caption = "Bottleneck utilization"
kind = "utilization"
at = "4Mbps"
[[figure]]
id = "flows"
caption = "Throughput of each flow"
kind = "flow_throughput"
at = "4Mbps"
[[figure]]
id = "sweep"
caption = "Throughput, drop rate and convergence time (a new connection) against the bottleneck rate"
kind = "sweep"
metrics = ["tcp_throughput_mbps", "tcp_drop_rate", "conv_rtts.0"]
[[figure]]
id = "sweep_flows"
caption = "Each flow's throughput against the bottleneck rate"
kind = "sweep_flows"
metrics = ["flow_throughput_mbps"]
[[figure]]
id = "queue_panels"
caption = "Fig. 2 (a), (b). Queue size and drop times"
kind = "queue"
at = "4Mbps"
cases = ["vegas", "reno"]
panels = true
[[figure]]
id = "cwnd_panels"
caption = "Fig. 3 (c). Congestion windows (right: not in the document)"
kind = "cwnd"
at = "4Mbps"
cases = ["reno", "vegas"]
panels = ["c", ""]

[base.simulation]
duration = "3s"
seed = 1
[base.dumbbell]
pairs = 2
[base.dumbbell.bottleneck]
rate = "4Mbps"
delay = "10ms"
queue = { kind = "red", limit = "30p", min_th = 3, max_th = 9 }
[base.dumbbell.access]
rate = "100Mbps"
delay = "2ms"
[[base.flow]]
name = "f{i}"
count = 2
from = "s{i}"
to = "d{i}"
[base.monitor]
interval = "100ms"
queues = ["r1->r2"]
"""

KINDS = ["throughput", "cwnd", "queue", "utilization", "flows", "sweep", "sweep_flows", "queue_panels", "cwnd_panels"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    doc = root / "doc"
    doc.mkdir()
    (doc / "document.toml").write_text(DOCUMENT)
    (doc / "numbers.toml").write_text("")
    (doc / "ex.toml").write_text(EXPERIMENT)
    r = reproduce(str(doc), quick=True, out=root / "out", progress=False, format="svg")
    return r


def _drawn(r):
    """(figure id, matplotlib figure) of every figure of the document."""
    m = Measurements(r.outcome.table, r.outcome.plan.unavailable)
    ex = r.document.experiments[0]
    out = []
    for fig in ex.figures:
        drawn = figures._draw(ex, fig, r.outcome, m)
        assert drawn is not None, fig.id
        out.append((fig.id, drawn[0]))
    return out


def test_every_measurement_has_a_label_in_words(tiny, tmp_path):
    measured = set(tiny.outcome.table["metric"])
    assert {"conv_rtts.0", "jain_window.1", "flow_throughput_mbps.f0", "cov", "queue_norm_max",
            "recovery_s.f0"} <= measured
    trace = tmp_path / "empty.tr"
    trace.write_text("")
    for name in measured | set(trace_measures(read_trace(trace))):
        label = measure_label(name)
        assert name not in label and "_" not in label, (name, label)
    with pytest.raises(ValueError, match="'nope.0' has no label in .*MEASURE_LABELS"):
        measure_label("nope.0")
    assert measure_label("conv_rtts.0") == "convergence time (BaseRTTs)"
    assert len(MEASURE_LABELS) == len(set(MEASURE_LABELS))


def test_figure_axes_are_labelled_in_words_never_with_internal_names(tiny):
    internal = set(tiny.outcome.table["metric"]) | {n.split(".")[0] for n in tiny.outcome.table["metric"]}
    for fid, f in _drawn(tiny):
        assert f.get_layout_engine() is not None, fid  # constrained layout: no overlaps
        for ax in f.axes:
            for text in (ax.get_xlabel(), ax.get_ylabel(), ax.get_title()):
                assert text not in internal, (fid, text)
                assert not [n for n in internal if "_" in n and n in text], (fid, text)
            assert ax.get_xlabel() in ("time (s)", "bottleneck rate (Mb/s)", ""), (fid, ax.get_xlabel())
    sweep = dict(_drawn(tiny))["sweep"]
    assert [a.get_ylabel() for a in sweep.axes] == [measure_label(m) for m in
                                                     ("tcp_throughput_mbps", "tcp_drop_rate", "conv_rtts.0")]


def test_utilization_figure_is_the_links_and_never_passes_the_rate(tiny):
    f = dict(_drawn(tiny))["utilization"]
    ax = f.axes[0]
    assert ax.get_ylabel() == "bottleneck utilization\n(fraction of the link rate, per 100 ms)"
    assert [line.get_label() for line in ax.get_lines()] == ["Reno", "Vegas"]
    for line in ax.get_lines():
        y = np.asarray(line.get_ydata(), dtype=float)
        # at most one 1000 B packet over a 100 ms interval at 4 Mb/s: 2 %
        assert y.max() <= 1.02 and y.max() > 0.5


def test_report_writes_png_at_150_dpi_and_the_format_asked_for(tiny):
    from PIL import Image

    figs = tiny.report_dir / "figures"
    for fid in KINDS:
        with Image.open(figs / f"{fid}.png") as im:
            assert min(im.info["dpi"]) >= 150, fid
        svg = (figs / f"{fid}.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg, fid
    md = (tiny.report_dir / "README.md").read_text()
    assert "([svg](figures/sweep.svg))" in md
    # the axis labels are text in the SVG (editable), in words
    assert "convergence time (BaseRTTs)" in (figs / "sweep.svg").read_text()
    assert "conv_rtts" not in (figs / "sweep.svg").read_text()


def test_cli_format_pdf_and_back_to_png_removes_the_copies(tiny, capsys):
    doc = str(tiny.document.path)
    out = tiny.report_dir.parent.parent
    assert cli_main(["reproduce", doc, "--quick", "--out", str(out), "--quiet", "--format", "pdf"]) == 0
    figs = tiny.report_dir / "figures"
    pdfs = sorted(p.stem for p in figs.glob("*.pdf"))
    assert pdfs == sorted(KINDS) and not list(figs.glob("*.svg"))
    assert all(b"/Type3" not in (figs / f"{k}.pdf").read_bytes() for k in KINDS)
    assert cli_main(["reproduce", doc, "--quick", "--out", str(out), "--quiet"]) == 0
    assert not list(figs.glob("*.pdf")) and len(list(figs.glob("*.png"))) == len(KINDS)


def _run(r, case):
    from tcpsim.results import load_results

    return load_results(r.outcome.run_dirs[("ex", case, "4Mbps", r.outcome.plan.seeds[0])])


def test_panels_follow_the_figures_order_of_cases_titled_with_letter_and_label(tiny):
    drawn = dict(_drawn(tiny))
    queue, cwnd = drawn["queue_panels"], drawn["cwnd_panels"]
    assert [ax.get_title(loc="left") for ax in queue.axes if ax.get_visible()] == ["(a) Vegas", "(b) Reno"]
    assert [ax.get_title(loc="left") for ax in cwnd.axes if ax.get_visible()] == ["(c) Reno", "Vegas"]
    # shared axes: one time axis and one y axis for every panel
    a, b = [ax for ax in queue.axes if ax.get_visible()]
    assert a.get_shared_x_axes().joined(a, b) and a.get_shared_y_axes().joined(a, b)
    assert queue.get_supylabel() == figures.TIME_AXIS_LABELS["queue"] and queue.get_supxlabel() == "time (s)"
    # one curve per flow, named as the flows are, with their congestion control
    reno_panel = [ax for ax in cwnd.axes if ax.get_visible()][0]
    assert [line.get_label() for line in reno_panel.get_lines()] == ["f0 (reno)", "f1 (reno)"]


def test_queue_panels_mark_every_interval_in_which_the_queue_dropped(tiny):
    """A mark per sampling interval with drops, one row per kind of drop, the legend
    giving the run's drops: the queue table's counts, so a mark left out fails."""
    drawn = dict(_drawn(tiny))["queue_panels"]
    panels = [ax for ax in drawn.axes if ax.get_visible()]
    total = 0
    for ax, case in zip(panels, ["vegas", "reno"]):
        res = _run(tiny, case)
        table = res.queues.set_index("queue").loc["r1->r2"]
        for kind, label in (("early_drops", "early drops (RED)"), ("overflow_drops", "drops, buffer full")):
            per_interval = res.series(kind, ["r1->r2"]).iloc[:, 0].fillna(0)
            marks = [line for line in ax.get_lines() if line.get_label().startswith(label)]
            hits = per_interval[per_interval > 0]
            assert int(per_interval.sum()) == int(table[kind])  # the series counts every drop
            if hits.empty:
                assert marks == []
                continue
            (mark,) = marks
            assert list(mark.get_xdata()) == list(hits.index)
            assert mark.get_label() == f"{label}: {int(table[kind]):,}"
            total += int(table[kind])
    assert total > 0  # the runs drop, so the marks are there to count
