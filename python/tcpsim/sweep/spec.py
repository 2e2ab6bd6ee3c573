"""Sweep specs: the `Sweep` class (spec file parsing, grid expansion into runs,
validation with messages naming the spec file and grid keys), `Run`, `run_id` and
`SweepError`."""

from __future__ import annotations

import copy
import hashlib
import itertools
import re
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover - Python 3.9/3.10
    import tomli as _toml  # type: ignore[no-redef]

from .._core import ScenarioError, __build__, validate_toml
from ..api import read_scenario
from .groups import FlowGroups, parse_groups
from .metrics import METRICS
from ..overrides import ORIGINS, SEED_KEY, Override, as_overrides
from ..overrides import apply as apply_overrides, check as check_overridden
from ..results import PathLike
from ..keypaths import (
    _model_key,
    _Step,
    _assign,
    _containers,
    _parse_path,
    _related,
    _strip_line,
    _toml_value,
    _type_name,
    canonical_toml,
    check_model_key,
    drop_stale_params,
    promote_model_tables,
)

_SPEC_SWEEP_KEYS = ("base", "grid", "seeds", "out", "name", "groups")


class SweepError(RuntimeError):
    """A sweep could not complete: some runs failed, or the output directory is in use.

    Attributes:
        failures: ``{run_id: "ExceptionType: message"}`` of the runs that failed.
        results: the table of the runs that did finish (a DataFrame), or None.
    """

    def __init__(self, message: str, failures: Optional[Dict[str, str]] = None, results=None):
        super().__init__(message)
        self.failures = dict(failures or {})
        self.results = results


class Run(NamedTuple):
    """One run of a sweep: ``(run_id, params, toml_text)``."""

    run_id: str
    params: Dict[str, Any]
    toml_text: str


# ============================================================================ the sweep


def _split_grid_key(key: str) -> List[str]:
    """``"a.min_th, a.max_th"`` (linked keys, varied together) -> two paths."""
    parts, buf, quoted = [], [], False
    for ch in key:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            parts.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf).strip())
    return parts


def _flatten_grid(grid: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """Nested tables (``[sweep.grid.dumbbell] pairs = [...]``, or unquoted dotted keys)
    become dotted keys; lists are leaves."""
    flat: Dict[str, Any] = {}
    for k, v in grid.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping):
            flat.update(_flatten_grid(v, key))
        else:
            flat[key] = v
    return flat


def _with_line(message: str, name: str, text: str) -> str:
    """Adds the spec line of the key a message names (``name, line N, ...``) when the
    message is about the spec itself and has no line yet."""
    if not message.startswith(name):
        return message
    rest = message[len(name):]
    if rest.startswith((", line ", ": base scenario")) or rest[2:].startswith(ORIGINS):
        return message  # has its line, or is about the base or an override, not the spec
    m = re.search(r"key '([^']*)'|\[sweep\.grid\] '([^']*)'|table '([^']*)'", rest)
    key = next((g for g in m.groups() if g), None) if m else None
    return f"{name}, line {_line_of(text, key)}{rest if rest.startswith((',', ':')) else ': ' + rest}"


def _line_of(text: str, key: Optional[str]) -> int:
    """The line of a spec that sets `key` (``sweep.seeds``, a grid key path, a table
    name); the ``[sweep.grid]`` or ``[sweep]`` header, else 1, when none does."""
    lines = text.splitlines()

    def first(pattern: str) -> Optional[int]:
        rx = re.compile(pattern)
        return next((i + 1 for i, line in enumerate(lines) if rx.search(line)), None)

    found = None
    if key:
        k = re.escape(key)
        found = first(rf'^\s*(["\']){k}\1\s*=') or first(rf"^\s*{k}\s*=")
        if found is None and key.startswith("sweep."):
            tail = re.escape(key.split(".", 1)[1])
            found = (first(rf"^\s*\[\s*sweep\.{tail}\s*\]") or first(rf"^\s*{tail}\s*=")
                     or first(rf'^\s*"?{tail}"?\s*='))
            for segment in reversed(key.split(".")[2:]):  # a key inside an inline table
                found = found or first(rf'^\s*"?{re.escape(segment)}"?\s*=')
        if found is None:
            first_seg = re.escape(key.split(".")[0].split("[")[0].split(",")[0].strip())
            found = first(rf"^\s*\[+\s*{first_seg}\b") or first(rf'^\s*"?{first_seg}\b[^=]*=')
    if found is None and key and not key.startswith("sweep"):
        found = first(r"^\s*\[\s*sweep\.grid")
    return found or first(r"^\s*\[\s*sweep\b") or 1


def _deepest_line(text: str) -> int:
    """The line where brackets first nest more than 50 deep (for an error message)."""
    depth = 0
    for n, line in enumerate(text.splitlines(), 1):
        for ch in line:
            depth += ch in "[{"
            depth -= ch in "]}"
            if depth > 50:
                return n
    return 1


def _short(value: Any, limit: int = 60) -> str:
    text = _toml_value(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Sweep:
    """A base scenario, a grid of values for keys of it, and seeds.

    Args:
        base: the base scenario: path of a ``.toml`` file, TOML text, a dict (as
            ``tomllib`` gives) or an object with ``to_toml()`` (a `tcpsim.Scenario`).
        grid: ``{key path: [values]}``. A key path names a key of the scenario:
            ``"dumbbell.bottleneck.queue.max_th"``, ``"flow[0].recovery"`` (an element of
            ``[[flow]]``), ``"flow[*].recovery"`` (every element). Several paths joined
            by commas are varied together: ``"q.min_th, q.max_th" = [[5, 15], [10, 30]]``.
            Each value replaces the base's value (a table value replaces the whole
            table); missing tables on the way are created.
        seeds: values of ``simulation.seed``; every grid point runs once per seed.
            ``None`` keeps the base's seed.
        name: label of the sweep (progress bar, default output directory).
        source: name of the spec file, used in error messages.
        overrides: ``{key path: value}`` set in the base scenario before the grid (as
            ``tcpsim sweep --set`` does; `tcpsim.overrides`). A seed override where
            `seeds` is given, or an override of a key the grid varies, is an error.
        groups: groups of flows whose goodput, share and Jain index become columns of
            the sweep table: ``{"by": "cc"}`` (a flows-table column) or ``{"flows":
            {"vegas": "vegas*", "reno": ["reno*"]}}`` (flow-name patterns), as the
            spec's ``[sweep.groups]`` (`tcpsim.sweep.groups`).

    Raises:
        tcpsim.ScenarioError: the base scenario, a key path or a value is invalid; the
            message names the spec file (`source`) and the grid key.
    """

    #: Keys set in the base before the grid, and the groups of flows (none unless given;
    #: subclasses that skip ``__init__`` inherit these).
    overrides: Sequence[Override] = ()
    groups: Optional[FlowGroups] = None

    def __init__(
        self,
        base: Any,
        grid: Optional[Mapping[str, Sequence[Any]]] = None,
        seeds: Optional[Iterable[int]] = None,
        *,
        name: Optional[str] = None,
        source: Optional[str] = None,
        out: Optional[PathLike] = None,
        overrides: Union[Mapping[str, Any], Sequence[Override], None] = None,
        groups: Union[Mapping[str, Any], FlowGroups, None] = None,
    ):
        self.source = source or "<sweep>"
        self.out = Path(out) if out is not None else None
        self.base, self.base_name, base_is_text = self._load_base(base)
        if name:
            self.name = name
        elif source:
            self.name = Path(source).stem
        elif not self.base_name.startswith("<"):
            self.name = Path(self.base_name).stem
        else:
            self.name = "sweep"
        self.seeds = self._check_seeds(seeds)
        # (column, [paths], [values]) per grid entry; linked keys share one entry.
        self._entries: List[Tuple[List[str], List[List[_Step]], List[List[Any]]]] = []
        for key, values in (grid or {}).items():
            self._entries.append(self._check_entry(str(key), values))
        columns = [c for cols, _, _ in self._entries for c in cols]
        dup = sorted({c for c in columns if columns.count(c) > 1})
        if dup:
            raise ScenarioError(f"{self.source}: [sweep.grid] names '{dup[0]}' more than once")
        if self.seeds is not None and "simulation.seed" in columns:
            raise ScenarioError(
                f"{self.source}: [sweep.grid] key 'simulation.seed' and seeds both set the seed; "
                "use one of them"
            )
        self.groups = parse_groups(groups, self.source, columns + list(METRICS))
        self.overrides = as_overrides(overrides)
        self._check_override_keys(columns)
        self._check_base(base_is_text)
        self._check_model_keys()
        self._check_paths()
        self._runs: Optional[List[Run]] = None
        self.runs()  # expands and validates every run now

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_spec(cls, spec: Any, overrides: Any = None) -> "Sweep":
        """Reads a sweep spec: a path of a ``.toml`` spec file, or its text. Relative
        paths in it (``base``, ``out``) are relative to the spec file. See docs/sweeps.md.

        Errors are `tcpsim.ScenarioError`s that name the spec file, the line and the
        key (``spec.toml, line 7, [sweep.grid] key 'flow[*].cc': ...``). `overrides`
        (as `Sweep` takes them) apply to the base scenario."""
        try:
            text, name = read_scenario(spec)
        except OSError as e:
            raise ScenarioError(f"cannot read sweep spec {spec}: {e.strerror or e}") from None
        try:
            return cls._from_spec_text(text, name, overrides)
        except ScenarioError as e:
            raise ScenarioError(_with_line(str(e), name, text)) from None
        except RecursionError:
            raise ScenarioError(
                f"{name}, line {_deepest_line(text)}: nested more deeply than tcpsim reads "
                "(a sweep spec needs a few levels: [sweep.grid] key = [values])") from None

    @classmethod
    def _from_spec_text(cls, text: str, name: str, overrides: Any = None) -> "Sweep":
        try:
            doc = _toml.loads(text)
        except _toml.TOMLDecodeError as e:
            raise ScenarioError(f"{name}, line {getattr(e, 'lineno', 1) or 1}: not valid TOML: {e}") from None
        here = Path(name).parent if name != "<string>" else Path(".")
        unknown = sorted(set(doc) - {"sweep", "base"})
        if unknown:
            raise ScenarioError(
                f"{name}: unknown table '{unknown[0]}'; a sweep spec has [sweep] "
                "(base, seeds, out, name, [sweep.grid], [sweep.groups]) and optionally an inline [base] scenario"
            )
        sw = doc.get("sweep")
        if not isinstance(sw, dict):
            raise ScenarioError(f"{name}: missing [sweep] table (see docs/sweeps.md)")
        bad = sorted(set(sw) - set(_SPEC_SWEEP_KEYS))
        if bad:
            raise ScenarioError(
                f"{name}, key 'sweep.{bad[0]}': unknown key; expected one of "
                + ", ".join(f"'{k}'" for k in _SPEC_SWEEP_KEYS)
            )
        if "base" in sw and "base" in doc:
            raise ScenarioError(f"{name}: give either sweep.base (a file) or an inline [base] table, not both")
        if "base" in doc:
            if not isinstance(doc["base"], dict):
                raise ScenarioError(f"{name}, key 'base': expected a table (the base scenario)")
            base: Any = doc["base"]
        elif "base" in sw:
            if not isinstance(sw["base"], str):
                raise ScenarioError(f"{name}, key 'sweep.base': expected the path of a scenario file")
            base = here / sw["base"]
            if not base.is_file():
                raise ScenarioError(f"{name}, key 'sweep.base': scenario file not found: {base}")
        else:
            raise ScenarioError(
                f"{name}: no base scenario; set sweep.base = \"scenario.toml\" or add a [base] table"
            )
        grid = sw.get("grid", {})
        if not isinstance(grid, dict):
            raise ScenarioError(f"{name}, key 'sweep.grid': expected a table of key = [values]")
        out = sw.get("out")
        if out is not None and not isinstance(out, str):
            raise ScenarioError(f"{name}, key 'sweep.out': expected a directory path")
        sweep_name = sw.get("name")
        if sweep_name is not None and not isinstance(sweep_name, str):
            raise ScenarioError(f"{name}, key 'sweep.name': expected a string")
        return cls(
            base,
            grid=_flatten_grid(grid),
            seeds=sw.get("seeds"),
            name=sweep_name or (Path(name).stem if name != "<string>" else None),
            source=name,
            out=(here / out) if out is not None else None,
            overrides=overrides,
            groups=sw.get("groups"),
        )

    def _load_base(self, base: Any) -> Tuple[Dict[str, Any], str, bool]:
        if isinstance(base, Mapping):
            return copy.deepcopy(dict(base)), f"{self.source} [base]", False
        if hasattr(base, "to_toml") and callable(base.to_toml):
            text, name = base.to_toml(), "<scenario>"
        else:
            try:
                text, name = read_scenario(base)
            except OSError as e:
                raise ScenarioError(f"{self.source}: cannot read base scenario {base}: {e.strerror or e}") from None
        try:
            doc = _toml.loads(text)
        except _toml.TOMLDecodeError as e:
            raise ScenarioError(f"{self.source}: base scenario {name}: not valid TOML: {e}") from None
        self._base_text = text
        return doc, name, True

    def _check_seeds(self, seeds: Any) -> Optional[List[int]]:
        if seeds is None:
            return None
        if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, Iterable):
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': expected a list of integers such as [1, 2, 3]")
        out = []
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise ScenarioError(
                    f"{self.source}, key 'sweep.seeds': expected integers >= 0, got {_short(s)}"
                )
            out.append(int(s))
        if not out:
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': the list is empty")
        if len(set(out)) != len(out):
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': a seed is listed twice")
        return out

    def _check_entry(self, key: str, values: Any):
        where = f"{self.source}, [sweep.grid] key '{key}'"
        paths = _split_grid_key(key)
        steps = []
        for p in paths:
            try:
                steps.append(_parse_path(p))
            except ValueError as e:
                raise ScenarioError(f"{where}: bad key path '{p}': {e}") from None
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (list, tuple)):
            raise ScenarioError(f"{where}: expected a list of values, got {_type_name(values)}")
        if not values:
            raise ScenarioError(f"{where}: the list of values is empty")
        rows: List[List[Any]] = []
        for v in values:
            if len(paths) > 1:
                if not isinstance(v, (list, tuple)) or len(v) != len(paths):
                    raise ScenarioError(
                        f"{where}: {len(paths)} linked keys need each value to be a list of "
                        f"{len(paths)} values, got {_short(v)}"
                    )
                row = list(v)
            else:
                row = [v]
            for x in row:
                try:
                    _toml_value(x)
                except TypeError as e:
                    raise ScenarioError(f"{where}: {e}") from None
            rows.append(row)
        texts = [_toml_value(r) for r in rows]
        dup = next((t for t in texts if texts.count(t) > 1), None)
        if dup is not None:
            raise ScenarioError(f"{where}: the value {dup} is listed twice")
        return paths, steps, rows

    def _apply(self, doc: Dict[str, Any], entry, row: List[Any]) -> None:
        paths, steps, _ = entry
        for p, st, v in zip(paths, steps, row):
            try:
                promote_model_tables(doc, st)
                _assign(doc, p, st, v)
            except ValueError as e:
                raise ScenarioError(f"{self.source}, [sweep.grid] key '{p}': {e}") from None

    def _drop_stale_params(self, doc: Dict[str, Any]) -> None:
        """Where the grid varies a model's kind, the base's parameters the chosen kind
        does not have are dropped (`keypaths.drop_stale_params`)."""
        drop_stale_params(doc, [st for _, steps, _ in self._entries for st in steps])

    def _seeded(self, doc: Dict[str, Any], seed: Optional[int]) -> Dict[str, Any]:
        if seed is not None:
            sim = doc.setdefault("simulation", {})
            if not isinstance(sim, dict):
                raise ScenarioError(f"{self.source}: the base scenario's 'simulation' is not a table")
            sim["seed"] = seed
        return doc

    def _check_override_keys(self, columns: List[str]) -> None:
        """An override of the seed where the sweep sets each run's seed, or of a key the
        grid varies, would be replaced in every run: an error, not a silent no-op."""
        for o in self.overrides:
            if o.key == SEED_KEY and self.seeds is not None:
                raise ScenarioError(
                    f"{self.source}, {o.origin}: the sweep's seeds ({_short(self.seeds)}) set "
                    "each run's seed; leave out the override, or the spec's seeds to run the "
                    "grid with one seed")
            if o.key in columns:
                raise ScenarioError(
                    f"{self.source}, {o.origin}: [sweep.grid] varies '{o.key}', so each run "
                    "replaces the override; leave out one of them")

    def _check_base(self, base_is_text: bool) -> None:
        # The base as written (real line numbers), then in canonical form.
        if base_is_text:
            try:
                validate_toml(self._base_text, self.base_name)
            except ScenarioError as e:
                raise ScenarioError(f"{self.source}: base scenario: {e}") from None
        else:
            label = self.base_name
            try:
                validate_toml(canonical_toml(self.base), label)
            except ScenarioError as e:
                raise ScenarioError(_strip_line(str(e), label)) from None
        if self.overrides:  # applied to the base, before the grid
            self.base = apply_overrides(self.base, self.overrides, self.source)
            try:
                check_overridden(canonical_toml(self.base), self.base_name, self.overrides)
            except ScenarioError as e:
                raise ScenarioError(f"{self.source}: base scenario: {e}") from None

    def _check_model_keys(self) -> None:
        """Grid keys against the registry of models: a flow key, or a parameter of the
        model a ``cc``/``queue``/... key selects (``flow[*].cc.alpha``,
        ``dumbbell.bottleneck.queue.max_p``), must exist; the message names the closest."""
        all_steps = [st for _, steps, _ in self._entries for st in steps]
        for paths, steps, _ in self._entries:
            for p, st in zip(paths, steps):
                problem = check_model_key(p, st, self.base, all_steps)
                if problem:
                    raise ScenarioError(f"{self.source}, [sweep.grid] key '{p}': {problem}")

    def _check_paths(self) -> None:
        """Each grid value alone on the base: a key path that does not fit the base (an
        index out of range, a value where a table is needed) fails here, naming the key."""
        for entry in self._entries:
            for row in entry[2]:
                self._apply(copy.deepcopy(self.base), entry, row)

    def _validate_run(self, text: str, params: Mapping[str, Any]) -> None:
        """Validates one expanded scenario. The error names the spec file, the grid keys
        involved (those whose path contains, or lies inside, the key the core complains
        about) with their values, and the rest of the run's parameters."""
        label = self.source
        try:
            validate_toml(text, label)
            return
        except ScenarioError as e:
            message = _strip_line(str(e), label)
        rest = message[len(label):] if message.startswith(label) else ": " + message
        m = re.match(r", key '([^']*)'", rest)
        varying = [c for c in self.columns if c != "seed"]
        involved = [c for c in varying if m and _related(c, m.group(1))]
        others = [c for c in self.columns if c not in involved
                  and (c != "seed" or self.seeds is not None)]
        shown = lambda cols: ", ".join(f"'{c}' = {_short(params[c])}" for c in cols)
        if involved:
            head = f"{label}, [sweep.grid] {shown(involved)}"
            if others:
                head += f" (in the run with {shown(others)})"
        elif others:
            head = f"{label}, the run with {shown(others)}"
        else:
            head = f"{label}, base scenario {self.base_name}"
        raise ScenarioError(head + rest) from None

    # ------------------------------------------------------------------ expansion

    @property
    def grid(self) -> Dict[str, List[Any]]:
        """``{column: [values]}`` (linked keys listed separately)."""
        out: Dict[str, List[Any]] = {}
        for paths, _, rows in self._entries:
            for i, p in enumerate(paths):
                out[p] = [r[i] for r in rows]
        return out

    @property
    def columns(self) -> List[str]:
        """Parameter columns of the sweep table: the grid keys, then ``seed``."""
        return [p for paths, _, _ in self._entries for p in paths] + ["seed"]

    def _base_seed(self) -> Any:
        sim = self.base.get("simulation")
        return sim.get("seed", 1) if isinstance(sim, dict) else 1

    def runs(self) -> List[Run]:
        """Every run, in order (grid product, first key outermost, seeds innermost).

        Each scenario is validated; an invalid combination raises `ScenarioError` naming
        the spec file and the run's parameters. Identical scenarios are listed once."""
        if self._runs is not None:
            return list(self._runs)
        runs: List[Run] = []
        seen = set()
        seeds: List[Optional[int]] = list(self.seeds) if self.seeds is not None else [None]
        products = itertools.product(*[rows for _, _, rows in self._entries])
        for combo in products:
            for seed in seeds:
                doc = copy.deepcopy(self.base)
                params: Dict[str, Any] = {}
                for entry, row in zip(self._entries, combo):
                    self._apply(doc, entry, row)
                    params.update(zip(entry[0], row))
                self._drop_stale_params(doc)
                self._seeded(doc, seed)
                params["seed"] = seed if seed is not None else self._base_seed()
                text = canonical_toml(doc)
                rid = run_id(text)
                if rid in seen:
                    continue
                seen.add(rid)
                if self._entries or seed is not None:
                    self._validate_run(text, params)
                runs.append(Run(rid, params, text))
        self._runs = runs
        return list(runs)

    def __len__(self) -> int:
        return len(self.runs())

    def __repr__(self) -> str:
        grid = ", ".join(f"{', '.join(paths)}: {len(rows)}" for paths, _, rows in self._entries)
        seeds = f", seeds={self.seeds}" if self.seeds is not None else ""
        return f"Sweep({self.name!r}, base={self.base_name!r}, grid={{{grid}}}{seeds})"


def run_id(toml_text: str, version: Optional[str] = None) -> str:
    """The id of a run: 16 hex digits of SHA-256 over the tcpsim build (its version and
    the fingerprint of the simulator's sources, `tcpsim.__build__`) and the canonical
    scenario text, so that a cached run is reused only by the same simulator code."""
    v = version if version is not None else __build__
    h = hashlib.sha256(f"tcpsim {v}\n".encode() + toml_text.encode("utf-8"))
    return h.hexdigest()[:16]
