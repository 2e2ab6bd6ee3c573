"""ns-2.35 twins of a document's experiments (`tcpsim reproduce DOC --ns2`).

A reproduction that misses a published number leaves two suspects: the reconstruction
(topology, delays, windows the document does not give) and the simulator. When an
experiment declares an ns-2 twin, a Tcl script that builds the same network in ns-2.35,
``--ns2`` runs it for every case, axis value and seed of the plan, measures it with the
reproduction's own metric names and evaluates the document's checks on ns-2's numbers
too. The report then shows ns-2's verdict beside ours: a miss that ns-2 shares belongs
to the reconstruction, not to tcpsim.

The experiment file declares the twin (docs/reproducing.md#ns-2-twins)::

    [experiment.ns2]
    script = "validation/ns2/doc004.tcl"   # relative to the repository root
    args = ["part=p1", "window=100"]       # arguments of every run
    axis = "cbr"                           # the argument that takes the axis value

    [experiment.cases.vegas]
    ns2 = ["variant=vegas", "queue=droptail"]   # the case's own arguments

and the script is run as ``ns SCRIPT ARGS... CASE_ARGS... [AXIS=VALUE] T=SECONDS
seed=N trace=FILE``. It prints lib.tcl's report lines (validation/ns2/lib.tcl: ``flow
I bytes=..``, ``cbr I rx_pkts=.. rx_bytes=..``) and writes an ns-2 trace of every link.

Metrics measured on the ns-2 side (the same definitions as `measures`): the ``trace_*``
metrics (`trace_measures`), ``tcp_sent``, ``tcp_lost``, ``tcp_received``,
``tcp_drop_rate`` (from the trace), ``tcp_throughput_mbps`` (TCP wire bytes received /
run time: every flow of a twin runs from 0 s to the end), ``tcp_goodput_mbps`` and
``jain``/``max_min_share`` (the payload each TCPSink received in order, `payload_bytes`:
its ``bytes_`` counts wire bytes, so packets of 1040 bytes, but tcpsim's goodput counts
the 1000-byte payloads), ``tcp_retransmits`` and ``tcp_timeouts`` (each agent's
``nrexmitpack_`` and ``nrexmit_``; no timeouts for Fack, whose timeouts leave
``nrexmit_`` alone), ``bottleneck_early_drops``, ``bottleneck_forced_drops`` and
``bottleneck_marks`` (the QueueMonitor of the queue that sent the most bytes:
``epdrops_``, ``pdrops_ - epdrops_``, ``pmarks_``), ``udp_sent``, ``udp_received`` and
``udp_throughput_mbps``. Metrics that need our time series
(``cwnd_cuts``, ``rtt_ms``, ...) are not measured; their checks show "not run" for ns-2.

A twin that prints its sinks' ``bytes_`` and its bottleneck queue at the monitor interval
(``sinks t=.. bytes=B0,B1,..``, ``qlen t=.. pkts=..`` and each flow's ``start I t=..``:
validation/ns2/doc003.tcl) also gets reference document 003's metrics of an experiment
with ``[experiment.samples]`` or ``[experiment.handoff]`` — ``fairness_index``,
``worst_case_fairness``, ``cov``, ``short_term_fairness``, ``queue_norm_*``,
``recovery_s.NAME`` — computed by the very functions that measure our runs
(`measures.smoothness_measures`, `measures.handoff_measures`) on tables built from those
lines (`sampled_results`). A twin whose experiment says ``trace = false`` writes no
trace (100 flows at 100 Mb/s for 100 s would write gigabytes): its ``trace_*`` metrics,
and ``tcp_sent``, ``tcp_lost``, ``tcp_received``, ``tcp_drop_rate`` and
``tcp_throughput_mbps`` counted from the trace, are not measured.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

import pandas as pd

from .. import units
from .._progress import Counter
from ..results import Results, _atomic_write
from .checks import NO_TWIN
from .measures import TRACE_MEASURES_COLUMNS, handoff_measures, read_trace, smoothness_measures, trace_measures
from .runner import run_in_processes
from .spec import parse_ref

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

#: The repository root: twin scripts are named relative to it.
REPO = Path(__file__).resolve().parents[3]

Key = Tuple[str, str, Optional[str], int]


#: What `--ns2` says when ns-2 is missing.
NOT_INSTALLED = "--ns2 needs ns-2.35 (the command `ns`, Debian package ns2), which is not installed"


def ns_binary() -> Optional[str]:
    """The ``ns`` executable (Debian package ns2), or None."""
    return shutil.which("ns")


def _seconds(value: Any, where: str) -> float:
    q = units.parse(value)
    if q is None or q[1] != "time":
        raise ValueError(f"{where}: expected a duration such as \"100s\", found {value!r}")
    return q[0]


def twin_commands(plan) -> Dict[Key, List[str]]:
    """The ns-2 command of every run of `plan` whose experiment and case have a twin."""
    out: Dict[Key, List[str]] = {}
    for (exp, case, point, seed) in plan.runs:
        ex = plan.document.experiment(exp)
        c = ex.case(case)
        if ex.ns2 is None or c.ns2 is None:
            continue
        # the run's own duration: the base's, --quick's, or the axis' (document 003's E2)
        duration = _toml.loads(plan.runs[(exp, case, point, seed)].toml_text).get("simulation", {}).get("duration")
        seconds = _seconds(duration, f"{ex.path}, simulation.duration")
        script = REPO / ex.ns2.script
        args = [str(script), *ex.ns2.args, *c.ns2]
        if ex.ns2.axis and point is not None:
            args.append(f"{ex.ns2.axis}={point}")
        args += [f"T={seconds:g}", f"seed={seed}"]
        out[(exp, case, point, seed)] = args
    return out


def twin_measuring(plan) -> Dict[Key, Dict[str, Any]]:
    """What to measure on each twin run of `plan` besides its report lines: whether it
    writes a trace (``trace``), document 003's samples (``samples``: ``from_s``,
    ``every_s``, ``buffer_pkts``, as ``[experiment.samples]``) and outage (``outage_s``,
    ``[experiment.handoff]``). Keys as `twin_commands`."""
    out: Dict[Key, Dict[str, Any]] = {}
    for key in twin_commands(plan):
        ex = plan.document.experiment(key[0])
        samples = dataclasses.asdict(ex.samples) if ex.samples is not None else None
        out[key] = {"trace": ex.ns2.trace, "samples": samples,
                    "outage_s": list(ex.outage_s) if ex.outage_s is not None else None}
    return out


def _run_id(args: List[str], measuring: Optional[Dict[str, Any]] = None) -> str:
    """Identifies a twin run by its arguments, the text of its script and lib.tcl, and
    what is measured on it (`twin_measuring`; None: the report lines and the trace)."""
    h = hashlib.sha256()
    script = Path(args[0])
    for p in (script, script.with_name("lib.tcl")):
        if p.is_file():
            h.update(p.read_bytes())
    h.update(json.dumps([Path(args[0]).name] + args[1:]).encode())
    if measuring is not None:
        h.update(json.dumps(measuring, sort_keys=True).encode())
    return h.hexdigest()[:16]


def _kv(line: str) -> Dict[str, float]:
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-+0-9.eE]+)(?=\s|$)", line)}


def payload_bytes(flow: Dict[str, float]) -> float:
    """The payload a TCPSink received in order, from its report line (lib.tcl's
    report_tcp): ``bytes_`` counts wire sizes, the SYN included, so the in-order data
    packets are (bytes - syn_size) / (packet_size + header_size), each carrying
    packet_size bytes of payload, as tcpsim's ``goodput_bps`` counts them. A sink that
    has not even received the SYN (bytes_ 0: a flow that starts late in a short run)
    received no payload."""
    wire = flow["packet_size"] + flow["header_size"]
    return max(0.0, flow["bytes"] - flow["syn_size"]) // wire * flow["packet_size"]


def measures_from(stdout: str, tr: Optional[pd.DataFrame], seconds: float,
                  measuring: Optional[Dict[str, Any]] = None) -> Dict[str, float]:
    """The reproduction's metrics of one twin run: its report lines and its trace (None
    for a twin that writes none), and document 003's metrics when `measuring` asks for
    them (`twin_measuring`)."""
    from ..analysis import jain

    m: Dict[str, float] = {}
    if tr is not None:
        m.update(trace_measures(tr))
        m["tcp_sent"], m["tcp_lost"], m["tcp_received"] = m["trace_sent"], m["trace_lost"], m["trace_received"]
        m["tcp_drop_rate"] = m["trace_drop_rate"]
        m["tcp_throughput_mbps"] = m["trace_received_bytes"] * 8 / seconds / 1e6
    lines = stdout.splitlines()
    # the tcp_* measures are the TCP flows', as `run_measures` counts its type = "tcp"
    # flows: a TFRC flow's line (doc003.tcl's report_tfrc) is left out
    tcp_lines = [l for l in lines if l.startswith("flow ") and not re.search(r"\bagent=Agent/TFRC\b", l)]
    flows = [_kv(l) for l in tcp_lines]
    if flows:
        goodputs = [payload_bytes(f) * 8 / seconds for f in flows]
        m["tcp_goodput_mbps"] = sum(goodputs) / 1e6
        m["jain"] = jain(goodputs)
        m["max_min_share"] = max(goodputs) / min(goodputs) if min(goodputs) > 0 else float("nan")
        m["tcp_retransmits"] = sum(f["rexmit_pkts"] for f in flows)
        # Agent/TCP/Fack's timeout leaves nrexmit_ at 0 (validation/ns2/harness.py), so
        # its timeouts are not measured rather than reported as none
        agents = re.findall(r"\bagent=(\S+)", "\n".join(tcp_lines))
        if "Agent/TCP/Fack" not in agents:
            m["tcp_timeouts"] = sum(f["timeouts"] for f in flows)
    queues = [_kv(l) for l in lines if l.startswith("queue ")]
    if queues:
        # the bottleneck: the monitored queue that sent the most bytes on (ours: the most
        # utilised link direction)
        q = max(queues, key=lambda q: q["departed_bytes"])
        m["bottleneck_early_drops"] = q["early_drops"]
        m["bottleneck_forced_drops"] = q["drops"] - q["early_drops"]
        m["bottleneck_marks"] = q["marks"]
    if any(l.startswith("flowname ") for l in lines):
        m.update(group_measures_from(lines, seconds))
    if any(l.startswith("window ") for l in lines):
        m.update(aqm_measures_from(lines))
    if measuring and (measuring.get("samples") or measuring.get("outage_s")):
        res = sampled_results(lines, seconds)
        if res is not None:
            sm = measuring.get("samples")
            if sm:
                m.update(smoothness_measures(res, sm.get("from_s"), sm.get("every_s"), sm.get("buffer_pkts")))
            if measuring.get("outage_s"):
                m.update(handoff_measures(res, tuple(measuring["outage_s"])))
    cbr = [_kv(l) for l in stdout.splitlines() if l.startswith("cbr ")]
    if cbr and tr is not None:
        udp = tr[tr["type"] == "cbr"]
        m["udp_sent"] = float(((udp["op"] == "+") & (udp["from"] == udp["src_node"])).sum())
        m["udp_received"] = sum(c["rx_pkts"] for c in cbr)
        m["udp_throughput_mbps"] = sum(c["rx_bytes"] for c in cbr) * 8 / seconds / 1e6
    return m


def sampled_results(lines: List[str], seconds: float) -> Optional[Results]:
    """The tables document 003's metrics read (`measures.smoothness_measures`,
    `measures.handoff_measures`), built from a twin's sample lines: each flow ``tcpI``
    (our flows' names, TFRC ones too) with its goodput over its active time (payload
    received in order, `payload_bytes`, from its ``start I t=..`` to the end);
    ``delivered_bytes`` per flow and monitor interval, from the differences of the sinks'
    ``bytes_`` in the ``sinks`` lines, in whole payloads as our receivers count them (a
    TFRCSink's bytes_ over 1032-byte packets: its flow line gives syn_size 0); ``queue_pkts`` of ``r1->r2``
    from the ``qlen`` lines; and ``r1->r2`` as the one (bottleneck) link. None without
    sample lines."""
    sinks = [(float(t), [float(b) for b in bs.split(",")]) for t, bs in
             (re.match(r"sinks t=(\S+) bytes=(\S+)", l).groups() for l in lines if l.startswith("sinks "))]
    flows = {int(l.split()[1]): _kv(l) for l in lines if l.startswith("flow ")}
    if not sinks or not flows:
        return None
    starts = {int(l.split()[1]): _kv(l)["t"] for l in lines if l.startswith("start ")}
    names = [f"tcp{i}" for i in sorted(flows)]
    goodput = [payload_bytes(flows[i]) * 8 / (seconds - starts.get(i, 0.0)) for i in sorted(flows)]
    flow_table = pd.DataFrame({"name": names, "type": "tcp", "goodput_bps": goodput})
    rows = []
    previous = [0.0] * len(names)
    for t, wire in sinks:
        for i, name in enumerate(names):
            f = flows[sorted(flows)[i]]
            delivered = payload_bytes({**f, "bytes": wire[i]})
            rows.append((t, name, "delivered_bytes", delivered - previous[i]))
            previous[i] = delivered
    for l in lines:
        if l.startswith("qlen "):
            q = _kv(l)
            rows.append((q["t"], "r1->r2", "queue_pkts", q["pkts"]))
    series = pd.DataFrame(rows, columns=["time_s", "entity", "metric", "value"])
    links = pd.DataFrame({"link": ["r1->r2"], "utilization": [1.0]})
    return Results(flows=flow_table, queues=pd.DataFrame(), links=links, timeseries=series)


def aqm_measures_from(lines: List[str]) -> Dict[str, float]:
    """`measures.aqm_measures` of a twin that prints the counters of its measurement
    window (validation/ns2/doc002.tcl): its ``window t=..`` lines at the window's start
    and end (the bottleneck's QueueMonitor counters and the agents' sums), its ``groups
    t=.. pkts=..`` lines (each subnet's data packets delivered in order so far), its
    ``qdelay`` line, its ``qlen`` samples and its ``bottleneck rate_bps=..`` line.

    Over the window: each subnet's goodput (``group_goodput_mbps.subnetK``, payload =
    packets x the flows' packet_size), their sum (``tcp_goodput_mbps``) and Jain's index
    over them; the bottleneck's early and forced drops, marks, loss rate and
    utilization (bytes sent on over rate x window); the mean queueing delay; the queue's
    samples from the window's start; the retransmissions and timeouts of all agents and
    ``retransmit_fraction``, the agents' retransmitted packets (``nrexmitpack_``) over
    their data packets (``ndatapack_``), as tcpsim's flows count them."""
    from ..metrics import jain_index, packet_loss_rate, queue_statistics, retransmission_fraction

    windows = [_kv(l) for l in lines if l.startswith("window ")]
    groups = [re.match(r"groups t=(\S+) pkts=(\S+)", l).groups() for l in lines if l.startswith("groups ")]
    if len(windows) != 2 or len(groups) != 2:
        return {}
    (a, b), (ga, gb) = windows, groups
    seconds = b["t"] - a["t"]
    payload = next((_kv(l)["packet_size"] for l in lines if l.startswith("flow ")), float("nan"))
    delivered = [float(y) - float(x) for x, y in zip(ga[1].split(","), gb[1].split(","))]
    out: Dict[str, float] = {}
    for k, pkts in enumerate(delivered):
        out[f"group_goodput_mbps.subnet{k}"] = pkts * payload * 8 / seconds / 1e6
    out["tcp_goodput_mbps"] = sum(delivered) * payload * 8 / seconds / 1e6
    out["jain_groups"] = jain_index(delivered) if sum(delivered) > 0 else float("nan")
    d = {k: b[k] - a[k] for k in ("arrivals", "departures", "drops", "early_drops", "marks", "departed_bytes",
                                  "rexmit_pkts", "timeouts")}
    out["bottleneck_early_drops"] = d["early_drops"]
    out["bottleneck_forced_drops"] = d["drops"] - d["early_drops"]
    out["bottleneck_marks"] = d["marks"]
    out["tcp_retransmits"] = d["rexmit_pkts"]
    out["tcp_timeouts"] = d["timeouts"]
    if d["arrivals"] > 0:
        out["bottleneck_loss_rate"] = packet_loss_rate(d["drops"], d["arrivals"])
    sent = b["data_pkts"] - a["data_pkts"]
    if sent > 0:
        out["retransmit_fraction"] = retransmission_fraction(sent, d["rexmit_pkts"])
    rate = next((_kv(l)["rate_bps"] for l in lines if l.startswith("bottleneck ")), None)
    if rate:
        out["bottleneck_utilization"] = d["departed_bytes"] * 8 / (rate * seconds)
    delay = next((_kv(l) for l in lines if l.startswith("qdelay ")), None)
    if delay is not None and delay.get("count", 0) > 0:
        out["bottleneck_delay_ms"] = delay["mean"] * 1e3
    qlen = [_kv(l) for l in lines if l.startswith("qlen ")]
    if qlen:
        samples = pd.Series([q["pkts"] for q in qlen], index=[q["t"] for q in qlen], dtype=float)
        try:
            out.update({f"queue_{k}_pkts": v for k, v in queue_statistics(samples, a["t"]).items()})
        except ValueError:
            pass
    return out


def _cc_of(agent: str) -> str:
    """tcpsim's congestion control of an ns-2 TCP agent class: Vegas' own, else Reno's
    AIMD (Agent/TCP, Reno, Newreno, Sack1 and Fack differ only in loss recovery)."""
    return "vegas" if agent == "Agent/TCP/Vegas" else "reno"


def group_measures_from(lines: List[str], seconds: float) -> Dict[str, float]:
    """`measures.group_measures` of a twin that names its flows (``flowname I name=S1``,
    validation/ns2/doc000.tcl): each flow's throughput from its TCPSink's ``bytes_``
    (wire bytes received in order) over the run, as every twin flow runs to the end, or
    over the window of its ``window0 I bytes=.. seconds=..`` lines (bytes_ at the window's
    end less at its start); the means per congestion control, their Vegas/Reno ratio,
    the total and its share of ``bottleneck rate_bps=..``; and each monitored queue's
    arrivals and drops."""
    from .measures import _queue_tag, _vegas_reno_ratio

    names = {int(i): n for i, n in (re.match(r"flowname (\d+) name=(\S+)", l).groups()
                                    for l in lines if l.startswith("flowname "))}
    flows = {int(l.split()[1]): (_kv(l), re.search(r"\bagent=(\S+)", l).group(1))
             for l in lines if l.startswith("flow ")}
    windows = {int(l.split()[1]): _kv(l) for l in lines if l.startswith("window0 ")}
    rate = next((_kv(l)["rate_bps"] for l in lines if l.startswith("bottleneck ")), float("nan"))
    out: Dict[str, float] = {}

    def summarise(kbps: Dict[int, float], window: str) -> None:
        groups: Dict[str, List[float]] = {}
        for i, v in kbps.items():
            out[f"flow_kbps{window}.{names.get(i, f'flow{i}')}"] = v
            groups.setdefault(_cc_of(flows[i][1]), []).append(v)
        means = {cc: sum(v) / len(v) for cc, v in groups.items()}
        for cc, mean in means.items():
            out[f"cc_mean_kbps{window}.{cc}"] = mean
        out[f"vegas_reno_ratio{window}"] = _vegas_reno_ratio(means)
        out[f"total_kbps{window}"] = sum(kbps.values())
        out[f"utilization_total{window}"] = sum(kbps.values()) / (rate / 1e3)

    summarise({i: f["bytes"] * 8 / seconds / 1e3 for i, (f, _) in flows.items()}, "")
    if windows:
        summarise({i: w["bytes"] * 8 / w["seconds"] / 1e3 for i, w in windows.items()}, "_window.0")
    for l in lines:
        if l.startswith("queue "):
            q = _kv(l)
            tag = _queue_tag(l.split()[1])
            out[f"queue_arrivals.{tag}"] = q["arrivals"]
            out[f"queue_drops.{tag}"] = q["drops"]
    return out


def without_twin(doc, verdicts: List[Any]) -> List[Any]:
    """`verdicts` evaluated on the twins' measurements, with each check that could not
    run because it refers to a case without a twin (``ns2 = false``,
    `spec.Case.no_twin`) marked `NO_TWIN` rather than "not run": the report then says
    that ns-2 has nothing to compare there, not that a measurement went missing."""
    out = []
    for v in verdicts:
        raw = v.check.raw
        refs = [parse_ref(r) for r in [*raw.get("items", []), *(raw[k] for k in ("ours", "series") if k in raw)]]
        lone = [f"{r.experiment}/{r.case}" for r in refs if _no_twin(doc, r.experiment, r.case)]
        if v.verdict == "not run" and lone:
            v = dataclasses.replace(v, verdict=NO_TWIN, reason=f"{lone[0]} has no ns-2 twin (ns2 = false in its "
                                                               "experiment file)")
        out.append(v)
    return out


def _no_twin(doc, experiment: str, case: str) -> bool:
    try:
        return doc.experiment(experiment).case(case).no_twin
    except KeyError:
        return False


def run_twin(args: List[str], measuring: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Runs one twin command (``ns`` + `args`) in a temporary directory, with a trace
    unless `measuring` says ``trace = False``, and measures it (`measures_from`).
    Raises RuntimeError with ns's message when the script fails."""
    ns = ns_binary()
    if ns is None:
        raise RuntimeError(NOT_INSTALLED)
    seconds = float(next(a for a in args if a.startswith("T="))[2:])
    traced = measuring is None or measuring.get("trace", True)
    with tempfile.TemporaryDirectory(prefix="tcpsim-ns2-") as tmp:
        trace = Path(tmp) / "trace.tr"
        p = subprocess.run([ns, *args, *([f"trace={trace}"] if traced else [])], capture_output=True, text=True, cwd=tmp)
        if p.returncode != 0 or (traced and not trace.is_file()):
            err = (p.stderr or p.stdout).strip().splitlines()
            raise RuntimeError(f"ns {' '.join(args)} failed (exit {p.returncode}): {err[-1] if err else 'no output'}")
        # measures_from reads no column beyond trace_measures' (its UDP count included)
        tr = read_trace(trace, TRACE_MEASURES_COLUMNS) if traced else None
    return {"measures": measures_from(p.stdout, tr, seconds, measuring), "stdout": p.stdout}


def _task(task: Dict[str, Any]) -> Dict[str, Any]:
    out = run_twin(task["args"], task.get("measuring"))
    out["id"] = task["id"]
    return out


def _measured(measuring: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """`measuring` as `_run_id` keys it: None when it asks for nothing beyond the trace
    and the report lines, so the cached runs of the twins of documents 000 and 004 keep
    their ids."""
    plain = measuring.get("trace", True) and not measuring.get("samples") and not measuring.get("outage_s")
    return None if plain else measuring


def run_ns2(plan, cache: Path, jobs: int = 1, progress: Union[bool, str] = True) -> pd.DataFrame:
    """Runs (or reuses, from ``cache/ns2``) the twin of every run of `plan` and returns
    the measurements as a table like `Outcome.table` (experiment, case, point, seed,
    metric, value)."""
    commands = twin_commands(plan)
    measuring = twin_measuring(plan)
    ndir = cache / "ns2"
    ndir.mkdir(parents=True, exist_ok=True)
    ids = {key: _run_id(args, _measured(measuring[key])) for key, args in commands.items()}
    done: Dict[str, Dict[str, float]] = {}
    todo: Dict[str, Dict[str, Any]] = {}
    for key, args in commands.items():
        rid = ids[key]
        f = ndir / f"{rid}.json"
        if f.is_file():
            try:
                done[rid] = json.loads(f.read_text())["measures"]
                continue
            except (ValueError, KeyError):
                pass
        todo[rid] = {"id": rid, "args": args, "measuring": measuring[key]}
    bar = Counter(progress, len(todo), f"{plan.document.id} ns-2")

    def keep(out: Dict[str, Any]) -> None:
        done[out["id"]] = out["measures"]
        _atomic_write(ndir / f"{out['id']}.json", lambda p: p.write_text(json.dumps(out, indent=1)))
        bar.update(1)

    try:
        run_in_processes(_task, list(todo.values()), jobs, keep)
    finally:
        bar.close()
    rows = []
    for key, rid in ids.items():
        for metric, value in done[rid].items():
            rows.append({"experiment": key[0], "case": key[1], "point": key[2], "seed": key[3],
                         "metric": metric, "value": value})
    return pd.DataFrame(rows, columns=["experiment", "case", "point", "seed", "metric", "value"])
