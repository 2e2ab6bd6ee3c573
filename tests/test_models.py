"""tcpsim.models: the registry of models as the core declares it, and `Model`."""

from __future__ import annotations

import json

import pytest

import tcpsim
from tcpsim import _core, models
from tcpsim.models import Model


def test_the_binding_gives_the_whole_registry_as_json():
    doc = json.loads(_core.models_json())
    assert [f["id"] for f in doc["families"]] == ["agent", "cc", "recovery", "receiver", "queue", "error_model"]
    fams = {f["id"]: f for f in doc["families"]}
    assert fams["agent"]["key"] == "type" and fams["agent"]["default"] == "tcp"
    assert fams["queue"]["scope"] == "link" and fams["cc"]["scope"] == "tcp_flow"
    names = {(m["family"], m["name"]) for m in doc["models"]}
    assert {("queue", "red"), ("queue", "droptail"), ("type", "tcp"), ("cc", "reno"), ("recovery", "reno")} <= names
    red = next(m for m in doc["models"] if m["name"] == "red")
    max_p = next(p for p in red["params"] if p["name"] == "max_p")
    assert max_p["default"] == 0.1 and max_p["min"] == 0 and max_p["max"] == 1 and max_p["doc"] and max_p["source"]


def test_every_family_default_is_registered():
    for fam in models.families():
        if fam.default is not None:
            assert models.find(fam.id, fam.default) is not None, fam


def test_markdown_table_comes_from_the_core():
    table = _core.model_markdown("queue", "red")
    assert table.startswith("| parameter | type | unit | default | range | meaning | source |")
    assert "| `min_th` |" in table
    assert models.get("queue", "red").markdown_table() == table
    with pytest.raises(ValueError):
        _core.model_markdown("queue", "nosuch")
    with pytest.raises(ValueError):
        _core.model_markdown("nosuch", "red")


# ---------------------------------------------------------------------------- lookups


def test_families_and_lookups():
    assert models.family("queue").title == "queue discipline"
    assert models.family("type").id == "agent" and models.family("flow").id == "agent"
    assert models.family("aqm").id == "queue"
    with pytest.raises(models.UnknownModelError, match="did you mean 'queue'"):
        models.family("queu")
    assert {s.family.id for s in models.lookup("reno")} == {"cc", "recovery"}
    assert models.get("queue", "red").ref == "queue/red"
    with pytest.raises(models.UnknownModelError, match="several families"):
        models.get(None, "reno")
    with pytest.raises(models.UnknownModelError, match=r"unknown queue discipline 'rde'; did you mean 'red'\?"):
        models.get("queue", "rde")
    with pytest.raises(tcpsim.ScenarioError, match="did you mean 'newreno'"):
        models.get(None, "newrno")


def test_closest_follows_the_cores_rule():
    assert models.closest("max_windw", ["max_window", "min_rto"]) == "max_window"
    assert models.closest("zzz", ["max_window"]) is None
    assert models.closest("rde", ["red", "droptail"]) == "red"


def test_defaults_are_the_registrys():
    red = models.get("queue", "red")
    assert red.defaults()["limit"] == "50p"
    assert "linterm" not in red.defaults()          # unset by default
    assert red.param("min_th").range_text() == "0 – 1000000000000"


# ---------------------------------------------------------------------------- Model


def test_model_checks_names_and_keeps_parameters():
    m = Model("red", limit="100p", min_th=20)
    assert m.kind == "red" and m.params == {"limit": "100p", "min_th": 20}
    assert m.to_dict() == {"kind": "red", "limit": "100p", "min_th": 20}
    assert m.max_th is None                         # a parameter left unset
    m.max_th = 60
    assert m.to_dict()["max_th"] == 60
    m.max_th = None
    assert "max_th" not in m.params
    with pytest.raises(TypeError, match="did you mean 'min_th'"):
        Model("red", min_thh=3)
    with pytest.raises(AttributeError, match="did you mean 'max_p'"):
        m.maxp = 0.2
    with pytest.raises(models.UnknownModelError, match="did you mean 'red'"):
        Model("rde")
    assert repr(m) == "Model('red', limit='100p', min_th=20)"


def test_model_equality_with_names_dicts_and_helpers():
    assert Model("reno") == "reno" and Model("reno", family="cc") == "reno"
    assert Model("red", min_th=5) != "red"
    assert Model("delayed", timeout="40ms") == {"kind": "delayed", "timeout": "40ms"}
    assert tcpsim.RED(min_th=5) == Model("red", min_th=5)
    assert Model("reno", family="cc") != Model("reno", family="recovery")
    assert Model.from_dict({"kind": "red", "limit": "10p"}, "queue") == tcpsim.RED(limit="10p")
    assert type(Model.from_dict({"kind": "red"}, "queue")) is tcpsim.RED


def test_a_shared_name_accepts_the_parameters_of_any_of_its_models():
    # "reno" is a congestion control and a loss recovery, neither with parameters.
    with pytest.raises(TypeError, match="congestion control 'reno' or loss recovery 'reno'"):
        Model("reno", alpha=1)


def test_helpers_document_the_registry_defaults():
    doc = tcpsim.RED.__doc__
    for p in models.get("queue", "red").params:
        assert p.name in doc
    assert 'min_th (number or "auto", packets; default 5)' in doc
