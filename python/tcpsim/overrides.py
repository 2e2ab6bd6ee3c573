"""Overrides: keys of a scenario set from outside it, as ns-3's ``--RngRun`` and
attribute flags do.

    tcpsim run X.toml --seed 3 --set dumbbell.bottleneck.rate=20Mbps --set "flow[0].cc.alpha=4"
    tcpsim.run("X.toml", seed=3, overrides={"dumbbell.bottleneck.rate": "20Mbps"})
    tcpsim sweep SPEC --set dumbbell.bottleneck.delay=40ms     (on the base, before the grid)

A key is a key path of sweep grids (`tcpsim.keypaths`, docs/sweeps.md), checked the same
way: a flow key or model parameter that does not exist (with the closest name), a
parameter of a model the scenario does not choose, an index out of range; then the core
validates the overridden scenario, and each message names the override involved. The
overrides apply in the order given, each to the scenario the ones before it left, so
``--set flow[0].cc=vegas --set flow[0].cc.alpha=4`` chooses Vegas and then sets its
alpha. ``--seed N`` is ``simulation.seed = N``.
"""

from __future__ import annotations

import argparse
import copy
import numbers
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover - Python 3.9/3.10
    import tomli as _toml  # type: ignore[no-redef]

from ._core import ScenarioError, validate_toml
from .keypaths import (
    _assign,
    _parse_path,
    _related,
    _strip_line,
    _toml_value,
    canonical_toml,
    check_model_key,
    drop_stale_params,
    promote_model_tables,
)

#: The key ``--seed`` and ``seed=`` set.
SEED_KEY = "simulation.seed"

#: How `tcpsim run --help` and the docs show the flags (one place for their wording).
FLAGS_HELP = """\
overrides (the key paths of sweep grids, docs/sweeps.md):
  --set KEY=VALUE   set one key of the scenario; repeat for more, applied in order.
                    VALUE is read as a TOML value when it is one (4, 0.1, true,
                    "text", [1, 2], { kind = "red", max_p = 0.1 }), else as text
                    (20Mbps, 40ms, vegas). Quote the whole flag in the shell when KEY
                    has [ ]: --set "flow[0].cc.alpha=4"
  --seed N          the run's seed (simulation.seed)
The run's summary.json lists the overrides; its scenario.toml is the overridden scenario.
"""


#: How every override's `origin` begins (messages about an override start with it).
ORIGINS = ("--set ", "--seed ", "overrides[", "seed=")


@dataclass(frozen=True)
class Override:
    """One key set from outside the scenario: its key path, its value, and how it was
    given (``--set 'flow[0].cc.alpha=4'``, ``--seed 3``, ``overrides['x']``), which
    every message about it names."""

    key: str
    value: Any
    origin: str


def parse_value(text: str) -> Any:
    """A flag's value: the TOML value `text` is (``4`` -> 4, ``true`` -> True,
    ``"a b"`` -> "a b", ``[1, 2]``, ``{ kind = "red" }``), else `text` itself
    (``20Mbps``, ``vegas``)."""
    try:
        parsed = _toml.loads(f"v = {text}")
    except _toml.TOMLDecodeError:
        return text
    return parsed["v"] if set(parsed) == {"v"} else text


def _split_assignment(text: str) -> Optional[int]:
    """The position of the ``=`` that ends the key of ``KEY=VALUE`` (the first one
    outside a quoted key segment), or None."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "=" and not quoted:
            return i
    return None


def parse_set(text: str) -> Override:
    """``KEY=VALUE`` of a ``--set`` flag. Raises ScenarioError naming the flag when
    there is no key or no value."""
    origin = f"--set '{text}'"
    at = _split_assignment(text)
    key = text[:at].strip() if at is not None else ""
    raw = text[at + 1:].strip() if at is not None else ""
    if at is None or not key or not raw:
        raise ScenarioError(
            f"{origin}: expected KEY=VALUE, such as --set dumbbell.bottleneck.rate=20Mbps "
            "or --set \"flow[0].cc.alpha=4\"")
    return Override(key, parse_value(raw), origin)


def _check_seed(seed: Any, origin: str) -> int:
    """A seed as an int (numpy integers included); ScenarioError naming `origin` else."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ScenarioError(f"{origin}: expected an integer >= 0 (the run's seed)")
    return int(seed)


def from_flags(sets: Optional[Sequence[str]], seed: Optional[int]) -> List[Override]:
    """The overrides of ``--set`` flags (in order) and ``--seed``."""
    out = [parse_set(s) for s in sets or ()]
    if seed is not None:
        out.append(Override(SEED_KEY, _check_seed(seed, f"--seed {seed}"), f"--seed {seed}"))
    return _no_repeats(out)


def from_api(overrides: Optional[Mapping[str, Any]], seed: Optional[int]) -> List[Override]:
    """The overrides of the Python API's ``overrides={key: value}`` (values as Python
    values, not parsed: ``"20Mbps"``, 4, True) and ``seed=``."""
    if overrides is not None and not isinstance(overrides, Mapping):
        raise TypeError(f"overrides must be a dict of key path -> value, not {type(overrides).__name__}")
    out = [Override(str(k), v, f"overrides[{str(k)!r}]") for k, v in (overrides or {}).items()]
    if seed is not None:
        out.append(Override(SEED_KEY, _check_seed(seed, f"seed={seed!r}"), f"seed={seed!r}"))
    return _no_repeats(out)


def _no_repeats(overrides: List[Override]) -> List[Override]:
    seen: Dict[str, Override] = {}
    for o in overrides:
        if o.key in seen:
            raise ScenarioError(f"{seen[o.key].origin} and {o.origin} both set '{o.key}'; give it once")
        seen[o.key] = o
    return overrides


def as_overrides(overrides: Any) -> List[Override]:
    """Overrides given as a list of `Override` (the command line's), or as the Python
    API's ``{key path: value}``."""
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        return from_api(overrides, None)
    items = list(overrides)
    if not all(isinstance(o, Override) for o in items):
        raise TypeError("overrides must be a dict of key path -> value")
    return _no_repeats(items)


def record(overrides: Sequence[Override]) -> Dict[str, Any]:
    """``{key: value}`` of the overrides, in order, for summary.json and sweep.json."""
    return {o.key: copy.deepcopy(o.value) for o in overrides}


def apply(doc: Dict[str, Any], overrides: Sequence[Override], source: str) -> Dict[str, Any]:
    """A copy of scenario `doc` (a dict as tomllib reads it) with `overrides` applied in
    order, as a sweep applies a grid value: a model key given as a name becomes a table
    where a parameter of it is set, and choosing another kind of model drops the
    parameters the new kind does not have. Raises ScenarioError
    (``SOURCE, --set 'KEY=VALUE': ...``) for a bad key path, a key a flow or no model of
    the family has (with the closest name), a parameter of a model not chosen, an index
    out of range or a value that cannot be written."""
    doc = copy.deepcopy(doc)
    for o in overrides:
        where = f"{source}, {o.origin}"
        try:
            steps = _parse_path(o.key)
        except ValueError as e:
            raise ScenarioError(f"{where}: bad key path '{o.key}': {e}") from None
        try:
            _toml_value(o.value)
        except TypeError as e:
            raise ScenarioError(f"{where}: {e}") from None
        problem = check_model_key(o.key, steps, doc, [],
                                  remedy="choose another model for '{where}' first (an override before this one)")
        if problem:
            raise ScenarioError(f"{where}: {problem}")
        try:
            promote_model_tables(doc, steps)
            _assign(doc, o.key, steps, o.value)
        except ValueError as e:
            raise ScenarioError(f"{where}: {e}") from None
        drop_stale_params(doc, [steps])
    return doc


def check(text: str, name: str, overrides: Sequence[Override], original: Optional[str] = None,
          **limits: Optional[int]) -> None:
    """Validates the overridden scenario `text` (canonical TOML written from `name`). The
    core's message loses its line (the text is generated) and names the overrides on
    the path of the key it is about. An error the `original` text has as well is the
    original's, reported with its line."""
    try:
        validate_toml(text, name, **limits)
        return
    except ScenarioError as e:
        message = _strip_line(str(e), name)
    if original is not None:
        try:
            validate_toml(original, name, **limits)
        except ScenarioError as e:
            if _strip_line(str(e), name) == message:
                raise ScenarioError(str(e)) from None
    rest = message[len(name):] if message.startswith(name) else ": " + message
    m = re.match(r", key '([^']*)'", rest)
    involved = [o.origin for o in overrides if m and _related(o.key, m.group(1))]
    shown = ", ".join(involved) if involved else "with " + ", ".join(o.origin for o in overrides)
    raise ScenarioError(f"{name}, {shown}{rest}") from None


def overridden_text(text: str, name: str, overrides: Sequence[Override], **limits: Optional[int]) -> str:
    """The scenario text `text` (read from `name`) with `overrides` applied, as
    canonical TOML, validated (`check`). Without overrides, `text` itself."""
    if not overrides:
        return text
    try:
        doc = _toml.loads(text)
    except _toml.TOMLDecodeError as e:
        validate_toml(text, name)  # the core's message, with the line
        raise ScenarioError(f"{name}: not valid TOML: {e}") from None
    new = canonical_toml(apply(doc, overrides, name))
    check(new, name, overrides, original=text, **limits)
    return new


def add_arguments(parser: argparse.ArgumentParser, seed_help: str = "the run's seed (simulation.seed)") -> None:
    """``--set KEY=VALUE`` (repeatable) and ``--seed N`` on a command's parser."""
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", dest="overrides",
                        help="set a key of the scenario (the key paths of sweep grids, "
                             "docs/sweeps.md), e.g. dumbbell.bottleneck.rate=20Mbps or "
                             "\"flow[0].cc.alpha=4\"; repeat for more, applied in order")
    parser.add_argument("--seed", metavar="N", type=_seed_arg, help=seed_help)


def _seed_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value
