"""Reading a sweep table for plotting: labels and units of its metric columns,
which columns are parameters, their values as labels or as numbers
(quantities with units placed by value, `tcpsim.units`), and the choice of
x axis, lines and linked parameters of a sweep plot.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from .. import units
from ..results import PathLike
from ..sweep.groups import GROUP_METRICS
from ..sweep.store import load_sweep


def _sweep_table(table: Union[pd.DataFrame, PathLike]) -> pd.DataFrame:
    """`table` itself, or the table of the sweep output directory it names (`load_sweep`)."""
    if isinstance(table, pd.DataFrame):
        return table
    return load_sweep(table)


#: Labels of the sweep table's metric columns: (description, unit, scale of the column).
SWEEP_METRICS: Dict[str, Tuple[str, str, float]] = {
    "flows": ("flows", "", 1.0),
    "goodput_bps": ("aggregate goodput", "Mbit/s", 1e-6),
    "goodput_bps_min": ("smallest flow goodput", "Mbit/s", 1e-6),
    "jain_index": ("Jain's fairness index", "", 1.0),
    "retransmits": ("retransmissions", "packets", 1.0),
    "timeouts": ("retransmission timeouts", "", 1.0),
    "rtt_mean_s": ("mean RTT", "ms", 1e3),
    "drops": ("drops, all queues", "packets", 1.0),
    "early_drops": ("early drops, all queues", "packets", 1.0),
    "overflow_drops": ("overflow drops, all queues", "packets", 1.0),
    "marks": ("ECN marks, all queues", "packets", 1.0),
    "bottleneck_utilization": ("bottleneck utilization", "%", 100.0),
    "bottleneck_queue_mean_pkts": ("bottleneck mean queue length", "packets", 1.0),
    "bottleneck_drops": ("bottleneck drops", "packets", 1.0),
    "events": ("simulator events", "", 1.0),
    "wall_s": ("wall-clock time per run", "s", 1.0),
}

#: Metrics that cannot exceed a value (in the column's own unit): their axes stop there.
BOUNDED_ABOVE: Dict[str, float] = {"jain_index": 1.0}
#: The same for the columns of each group of flows (``vegas.jain_index``).
GROUP_BOUNDED_ABOVE: Dict[str, float] = {"jain_index": 1.0, "goodput_share": 1.0}

#: The metrics `plot_sweep_all` (and ``tcpsim plot SWEEP_DIR``) draws by default.
DEFAULT_SWEEP_METRICS = ("goodput_bps", "jain_index", "bottleneck_utilization",
                         "bottleneck_queue_mean_pkts", "drops", "rtt_mean_s")

_NOT_PARAMETERS = set(SWEEP_METRICS) | {"bottleneck", "reused", "run_id"}


def _group_metric(column: str) -> Optional[Tuple[str, str]]:
    """(group, metric) of a column of ``[sweep.groups]`` (``vegas.goodput_share``)."""
    group, _, metric = column.rpartition(".")
    return (group, metric) if group and metric in GROUP_METRICS else None


def _upper_bound(column: str) -> Optional[float]:
    """The value a metric column cannot exceed (in its own unit), if any."""
    if column in BOUNDED_ABOVE:
        return BOUNDED_ABOVE[column]
    grouped = _group_metric(column)
    return GROUP_BOUNDED_ABOVE.get(grouped[1]) if grouped else None


def _metric_label(column: str) -> Tuple[str, str, float]:
    if column in SWEEP_METRICS:
        return SWEEP_METRICS[column]
    grouped = _group_metric(column)
    if grouped:
        what, unit, scale = GROUP_METRICS[grouped[1]]
        return f"{what} of group {grouped[0]}", unit, scale
    for suffix, unit, scale in (("_bps", "Mbit/s", 1e-6), ("_s", "s", 1.0),
                                ("_pkts", "packets", 1.0), ("_bytes", "bytes", 1.0)):
        if column.endswith(suffix):
            return column[: -len(suffix)], unit, scale
    return column, "", 1.0


def _axis_label(column: str) -> str:
    what, unit, _ = _metric_label(column)
    return f"{what} ({unit})" if unit else what


#: Where a key path points, in words: its first segments as a reader names them.
_PLACES = {"simulation": "the simulation", "bottleneck": "the bottleneck",
           "access": "the access links", "monitor": "the monitor", "routing": "routing"}
#: Key path segments dropped from a label: the topology generators' own tables.
_GENERATORS = {"dumbbell", "chain", "network"}


def parameter_label(key: str) -> str:
    """A swept key path in words, for an axis or legend title: what the key sets and where,
    model slots named by their family's title from the catalogue (`tcpsim.models`).

    >>> parameter_label("dumbbell.bottleneck.queue.max_th")
    'max_th of the bottleneck queue discipline'
    >>> parameter_label("flow[*].recovery")
    "every flow's loss recovery"
    >>> parameter_label("flow[0].cc.alpha")
    "alpha of flow 0's congestion control"
    >>> parameter_label("seed")
    'seed'
    """
    from .. import models

    slots = {fam.key: fam.title for fam in models.families() if fam.key != "type"}
    slots["queue_reverse"] = "reverse-direction queue discipline"
    segments = key.split(".")
    if len(segments) == 1:
        return slots.get(key, key)
    place_parts, generator = [], None
    for seg in segments[:-1]:
        if seg in _GENERATORS:
            generator = seg
            continue
        if seg in slots:
            continue
        table, _, index = seg.partition("[")
        if index:
            index = index.rstrip("]")
            place_parts.append(f"every {table}" if index == "*" else f"{table} {index}")
        else:
            place_parts.append(_PLACES.get(seg, seg.replace("_", " ")))
    place = " ".join(place_parts) or (f"the {generator}" if generator else "")
    name = segments[-1]
    # "the bottleneck" reads "the bottleneck queue discipline"; "every flow" and "flow 0"
    # read "every flow's congestion control".
    owned = (lambda title: f"{place} {title}") if place.startswith("the ") \
        else (lambda title: f"{place}'s {title}")
    if name in slots:  # the model chosen for a slot
        return owned(slots[name]) if place else slots[name]
    if segments[-2] in slots:  # a parameter of that model
        title = slots[segments[-2]]
        return f"{name} of {owned(title)}" if place else f"{name} of the {title}"
    return f"{name} of {place}" if place else name


def sweep_parameters(table: pd.DataFrame) -> List[str]:
    """The parameter columns of a sweep table (grid keys and ``seed``), in order.

    `run_sweep` writes the parameters first, ending with ``seed``, then the metrics.
    Without a ``seed`` column, every column that is not a known metric is taken."""
    cols = list(table.columns)
    if "seed" in cols:
        return cols[: cols.index("seed") + 1]
    return [c for c in cols if c not in _NOT_PARAMETERS]


def _short(column: str) -> str:
    """The last segment of a parameter path: ``dumbbell.bottleneck.queue.max_th`` -> max_th."""
    tail = column.rsplit(".", 1)[-1]
    return tail or column


def _value_labels(values: Sequence) -> Dict:
    """Readable labels for parameter values. Tables written as TOML text (for example a
    whole queue table) are shown by their ``kind`` and the keys that differ between the
    values of the same kind: ``droptail``, ``red, max_th=30``, ``red, max_th=60``."""
    labels = {v: _fmt_value(v) for v in values}
    texts = [v for v in values if isinstance(v, str) and v.lstrip().startswith("{")]
    if not texts or len(texts) != len(values):
        return labels
    try:
        try:
            import tomllib
        except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
            import tomli as tomllib  # type: ignore[no-redef]
        parsed = {v: tomllib.loads(f"v = {v}")["v"] for v in texts}
    except Exception:
        return labels
    if not all(isinstance(d, dict) for d in parsed.values()):
        return labels
    for v, d in parsed.items():
        same = [e for e in parsed.values() if e.get("kind") == d.get("kind")]
        keys = []
        for e in same:
            keys += [k for k in e if k not in keys and k != "kind"]
        differ = [k for k in keys if len({repr(e.get(k)) for e in same}) > 1]
        bits = [str(d["kind"])] if "kind" in d else []
        bits += [f"{k}={_fmt_value(d[k])}" for k in differ if k in d]
        labels[v] = ", ".join(bits) if bits else v
    return labels


def _fmt_value(v) -> str:
    if isinstance(v, (float, np.floating)):
        return f"{float(v):g}"
    return str(v)


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _quantities(series: pd.Series):
    """``({value: number}, dimension)`` when a parameter column holds quantities with
    units of one kind (``"50p"``, ``"10Mbps"``), else None (`tcpsim.units`)."""
    if _is_numeric(series) or pd.api.types.is_bool_dtype(series):
        return None
    return units.numeric(pd.unique(series))


def _orderable(series: pd.Series) -> bool:
    """Numbers, or quantities with units: placed and sorted by value."""
    return _is_numeric(series) or _quantities(series) is not None


def _determined_by(table: pd.DataFrame, keys: List[str], column: str) -> bool:
    """True if `column` takes one value for each combination of `keys` (a linked key)."""
    if not keys:
        return False
    g = table.groupby([table[k].astype(str) for k in keys], sort=False)[column]
    return bool((g.nunique(dropna=False) <= 1).all())


def _default_x(table: pd.DataFrame, varying: List[str]) -> str:
    if not varying:
        return "seed"
    numeric = [c for c in varying if _orderable(table[c])]
    pool = numeric or varying
    return max(pool, key=lambda c: (table[c].nunique(), -varying.index(c)))


def _default_hue(table: pd.DataFrame, candidates: List[str]) -> Optional[str]:
    if not candidates:
        return None
    return min(candidates, key=lambda c: (table[c].nunique(), _orderable(table[c]),
                                          candidates.index(c)))


def _resolve_sweep(table: pd.DataFrame, x: Optional[str], hue, parameters) -> Tuple[str, List[str], List[str], List[str]]:
    """(x, hue columns, linked-to-x columns, folded columns)."""
    params = list(parameters) if parameters is not None else sweep_parameters(table)
    for c in params:
        if c not in table.columns:
            raise ValueError(f"parameter {c!r} is not a column of the sweep table")
    varying = [c for c in params if c != "seed" and table[c].nunique(dropna=False) > 1]
    if x is None:
        x = _default_x(table, varying)
    elif x not in table.columns:
        raise ValueError(f"no column {x!r} in the sweep table; parameters: "
                         f"{', '.join(params) or '(none)'}")
    linked = [c for c in varying if c != x and _determined_by(table, [x], c)]
    rest = [c for c in varying if c != x and c not in linked]
    if hue is None:
        h = _default_hue(table, rest)
        hues = [h] if h else []
    else:
        hues = [hue] if isinstance(hue, str) else list(hue)
        for h in hues:
            if h not in table.columns:
                raise ValueError(f"no column {h!r} in the sweep table; parameters: "
                                 f"{', '.join(params) or '(none)'}")
            if h == x:
                raise ValueError(f"hue and x are the same column {h!r}")
    keys = [x] + hues
    folded = [c for c in rest if c not in hues and not _determined_by(table, keys, c)]
    return x, hues, linked, folded
