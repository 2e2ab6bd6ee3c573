"""Groups of flows in a sweep table: per-group columns without writing Python.

A spec groups the flows of every run in one of two ways (docs/sweeps.md, "Groups of
flows"):

    [sweep.groups]
    by = "cc"                  # one group per value of a column of the flows table

    [sweep.groups.flows]       # named groups of flow-name patterns (shell-style: * ? [..])
    vegas = "vegas*"
    reno = ["reno*", "newreno*"]

and the sweep table gets, for each group G, the columns ``G.flows``, ``G.goodput_bps``
(the group's aggregate goodput: bytes its flows delivered in the measurement window per
second of it, as the run's ``goodput_bps``), ``G.goodput_share`` (its fraction of all
flows' goodput) and ``G.jain_index`` (Jain's index of its flows' goodputs). Patterns may
overlap (a flow in two groups counts in both); a flow no pattern matches is in no group.
With ``by``, a flow without a value (a CBR flow's ``cc``) is in no group, and a group
no run has gets no columns. The columns come from each run's saved flows table, like a ``metrics=`` function's, so
changing the groups never reruns a run.
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .._core import ScenarioError
from ..models import closest
from ..results import OPTIONAL_COLUMNS, SCHEMAS

#: The columns of each group, and what they mean (plots label their axes with it).
GROUP_METRICS: Dict[str, Tuple[str, str, float]] = {
    "flows": ("number of flows", "", 1.0),
    "goodput_bps": ("goodput", "Mbit/s", 1e-6),
    "goodput_share": ("goodput share", "", 1.0),
    "jain_index": ("Jain's fairness index", "", 1.0),
}

#: Columns of the flows table a spec may group by: its text columns but the flow name
#: (a group per flow is the flows table itself), with ``group`` (the flows' own groups,
#: such as their source subnet), which a run has only when its flows name groups.
GROUP_BY_COLUMNS = tuple(c for c, t in {**SCHEMAS["flows"], **OPTIONAL_COLUMNS["flows"]}.items()
                         if t == "str" and c != "name")

_GROUP_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class FlowGroups:
    """How a sweep groups the flows of each run: `by` a flows-table column, or `flows`,
    ``{group name: [flow-name patterns]}``."""

    by: Optional[str] = None
    flows: Optional[Dict[str, List[str]]] = None

    def record(self) -> Dict[str, Any]:
        """The spec's form (``{"by": "cc"}`` or ``{"flows": {...}}``), for sweep.json."""
        return {"by": self.by} if self.by is not None else {"flows": dict(self.flows or {})}

    def columns(self, groups: List[str]) -> List[str]:
        """The columns of `groups`, group by group."""
        return [f"{g}.{m}" for g in groups for m in GROUP_METRICS]

    def order(self, columns: List[str]) -> List[str]:
        """Group columns found in the runs, in table order: the spec's groups in its
        order, or the values of `by` sorted; each group's columns as `GROUP_METRICS`."""
        found = list(dict.fromkeys(c.rsplit(".", 1)[0] for c in columns))
        groups = list(self.flows) if self.flows is not None else sorted(found)
        return [c for c in self.columns(groups) if c in set(columns)]

    def metrics(self, flows, summary: Mapping[str, Any]) -> Dict[str, Any]:
        """The group columns of one run, from its flows table and summary."""
        if self.by is not None and self.by not in flows.columns:
            members = {}  # an optional column (group) this run does not have: no groups
        elif self.by is not None:  # a flow without a value (a CBR flow's cc) is in no group
            values = flows[self.by].fillna("").astype(str)
            members = {g: flows[values == g] for g in sorted(set(values) - {""})}
        else:
            names = flows["name"].astype(str)
            members = {g: flows[names.map(lambda n: any(fnmatch.fnmatchcase(n, p) for p in pats))]
                       for g, pats in (self.flows or {}).items()}
        window = float(summary.get("duration_s", float("nan"))) - float(summary.get("measure_from_s", 0.0))
        total = float(flows["goodput_bytes"].sum()) if len(flows) else 0.0
        from ..analysis import jain  # pandas; not needed to read a sweep's spec

        out: Dict[str, Any] = {}
        for g, sub in members.items():
            delivered = float(sub["goodput_bytes"].sum()) if len(sub) else 0.0
            out[f"{g}.flows"] = int(len(sub))
            out[f"{g}.goodput_bps"] = delivered * 8.0 / window if window > 0 else float("nan")
            out[f"{g}.goodput_share"] = delivered / total if total > 0 else float("nan")
            out[f"{g}.jain_index"] = jain(sub["goodput_bps"]) if len(sub) else float("nan")
        return out

    def run_metrics(self, run_dir: Path) -> Dict[str, Any]:
        """The group columns of a finished run directory (its flows table and summary
        only, not the time series)."""
        import pandas as pd

        flows = pd.read_parquet(run_dir / "flows.parquet")
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
        return self.metrics(flows, summary)


def parse_groups(value: Any, source: str, taken: List[str]) -> Optional[FlowGroups]:
    """The `FlowGroups` of a spec's ``[sweep.groups]`` table (or the ``groups=``
    argument of `Sweep`, the same dict). Errors name `source` (the spec file) and the
    key (``spec.toml, key 'sweep.groups.by': ...``); `taken` are the sweep table's
    other column names, which a group's columns may not repeat."""
    if value is None:
        return None
    if isinstance(value, FlowGroups):
        return value

    def at(key: str = "") -> str:
        return f"{source}, key 'sweep.groups{key}'"
    where = at()
    example = 'by = "cc", or a table flows = { vegas = "vegas*", reno = ["reno*", "newreno*"] }'
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: expected a table: {example}")
    unknown = sorted(set(value) - {"by", "flows"})
    if unknown:
        hint = closest(unknown[0], ["by", "flows"])
        hint = f"did you mean '{hint}'? " if hint else ""
        raise ScenarioError(f"{where}: unknown key '{unknown[0]}'; {hint}expected {example}")
    if ("by" in value) == ("flows" in value):
        raise ScenarioError(f"{where}: expected one of 'by' and 'flows': {example}")
    if "by" in value:
        by = value["by"]
        if not isinstance(by, str) or by not in GROUP_BY_COLUMNS:
            hint = closest(by, GROUP_BY_COLUMNS) if isinstance(by, str) else None
            hint = f"; did you mean '{hint}'?" if hint else ""
            if by == "name":
                hint = "; to group flows by name, give [sweep.groups.flows] patterns"
            raise ScenarioError(
                f"{at('.by')}: expected a column of the flows table, one of "
                f"{', '.join(repr(c) for c in GROUP_BY_COLUMNS)}, got {json.dumps(by, default=str)}{hint}")
        return FlowGroups(by=by)
    flows = value["flows"]
    if not isinstance(flows, Mapping) or not flows:
        raise ScenarioError(f"{at('.flows')}: expected a table of group name = flow-name "
                            'pattern(s), such as vegas = "vegas*"')
    groups: Dict[str, List[str]] = {}
    for name, patterns in flows.items():
        key = at(f".flows.{name}")
        if not _GROUP_NAME.match(str(name)):
            raise ScenarioError(f"{key}: a group name is letters, digits, '_' and '-' (it "
                                "names the group's columns, such as vegas.goodput_share)")
        pats = [patterns] if isinstance(patterns, str) else patterns
        if not isinstance(pats, list) or not pats or not all(isinstance(p, str) and p for p in pats):
            raise ScenarioError(f'{key}: expected a flow-name pattern such as "vegas*", or a '
                                'list of them, got ' + json.dumps(patterns, default=str))
        clash = next((c for c in FlowGroups(flows={name: pats}).columns([str(name)]) if c in taken), None)
        if clash:
            raise ScenarioError(f"{key}: its column '{clash}' is already a column of the sweep table")
        groups[str(name)] = list(pats)
    return FlowGroups(flows=groups)
