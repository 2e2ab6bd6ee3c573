"""tcpsim.scenario: scenarios as Python objects — build, TOML out and in, validation with
the core's errors named by attribute path, run."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import tcpsim
from tcpsim.scenario import (
    RED,
    CbrFlow,
    Chain,
    DropTail,
    Dumbbell,
    Event,
    Link,
    LinkSpec,
    Monitor,
    Routing,
    Scenario,
    TcpFlow,
    python_key,
)

REPO = Path(__file__).resolve().parents[1]


def small_dumbbell(**overrides) -> Scenario:
    kw = dict(
        duration="3s",
        seed=3,
        dumbbell=Dumbbell(
            pairs=2,
            bottleneck=LinkSpec("5Mbps", "10ms", queue=RED(limit="50p", min_th=5, max_th=15)),
            access=LinkSpec("100Mbps", "2ms"),
            access_delays=["1ms", "6ms"],
        ),
        flows=[
            TcpFlow("s0", "d0", name="reno", recovery="reno", max_window=100),
            TcpFlow("s1", "d1", name="newreno", recovery="newreno", start="0.1s", max_window=100),
        ],
        monitor=Monitor(interval="100ms"),
    )
    kw.update(overrides)
    return Scenario(**kw)


def everything() -> Scenario:
    """A scenario setting every field of every class at least once (with `everything_dumbbell`:
    a dumbbell and a chain cannot share a scenario, both declare r1 and r2)."""
    red = RED(
        limit="60p", min_th=5, max_th=15.5, weight=0.002, linterm=10, gentle=False, wait=True,
        mean_packet_size="1000B", queue_in_bytes=True, bytes=False, ecn=True,
        use_mark_p=False, mark_p=0.2,
    )
    return Scenario(
        duration="2s",
        seed=42,
        nodes=["a", "b", "c"],
        links=[
            Link("a", "b", "10Mbps", "5ms", queue=DropTail(limit="30000B"), queue_reverse=DropTail()),
            Link("b", "c", "1.5Mbps", "20ms", queue=red),
            Link("c", "r0", "10Mbps", "1ms"),
        ],
        flows=[
            TcpFlow(
                "a", "c", name="full", count=1, start="0.1s", start_spacing="0s", stop="1.9s",
                recovery="tahoe", cc="reno", packet_size="500B", header_size="40B",
                ack_size="40B", initial_window=1, max_window=50, initial_ssthresh=30.5,
                packets=1000, dupack_threshold=3, limited_transmit=True, min_rto="200ms",
                max_rto="60s", initial_rto="3s", clock_granularity="10ms", receiver={"kind": "delayed", "timeout": "100ms"},
                syn=True, ecn=True, ect_on_retransmit=False, cwr_on_retransmit=False,
            ),
            TcpFlow("a", "r{i}", name="bulk{i}", count=2, start_spacing="10ms", start_jitter="5ms"),
            CbrFlow("b", "a", name="voice", count=1, start="0.2s", start_spacing="0s", stop="1s",
                    rate="64Kbps", packet_size="200B", jitter=True),
        ],
        chain=Chain(routers=3, rate="10Mbps", delay="1ms", queue=DropTail(limit="20p"), queue_reverse=RED()),
        monitor=Monitor(interval="50ms", flows=["full", "bulk0"], queues=["b->c", "r0->r1"]),
    )


def everything_dumbbell() -> Scenario:
    return Scenario(
        duration="1s",
        dumbbell=Dumbbell(
            pairs=2,
            bottleneck=LinkSpec("10Mbps", "10ms", queue=RED(max_p=0.05), queue_reverse=DropTail(limit="100p")),
            access=LinkSpec("100Mbps", "1ms", queue=DropTail(limit="1000p"), queue_reverse=DropTail(limit="10p")),
            access_delays=["1ms", "3ms"],
        ),
        flows=[TcpFlow("s{i}", "d{i}", count=2)],
        monitor=Monitor(flows="none", queues="all"),
    )


# ---------------------------------------------------------------------------- building


def test_built_scenario_validates_and_runs():
    sc = small_dumbbell()
    text = sc.to_toml()
    tcpsim.validate(text)          # the file path's validator accepts the text
    assert sc.validate() is sc
    res = sc.run()
    assert sorted(res.flows["name"]) == ["newreno", "reno"]
    assert (res.flows["goodput_bps"] > 0).all()
    assert res.scenario_text == text
    assert "delivered_bytes" in res.metrics()


def test_objects_run_exactly_like_the_equivalent_file(small_scenario):
    from_file = tcpsim.run(small_scenario)
    sc = Scenario.load(small_scenario)
    from_objects = sc.run()
    assert from_objects.flows.equals(from_file.flows)
    assert from_objects.queues.equals(from_file.queues)
    assert from_objects.timeseries.equals(from_file.timeseries)


def test_every_field_is_written_and_the_core_accepts_it():
    sc = everything()
    sc.validate()
    doc = tomllib.loads(sc.to_toml())
    flow = doc["flow"][0]
    assert flow["from"] == "a" and "from_" not in flow
    assert flow["limited_transmit"] is True and flow["syn"] is True
    assert flow["ecn"] is True and flow["ect_on_retransmit"] is False
    assert doc["flow"][2]["type"] == "cbr"
    assert "type" not in doc["flow"][0]
    assert doc["link"][1]["queue"]["kind"] == "red"
    assert doc["link"][1]["queue"]["linterm"] == 10
    assert doc["link"][0]["queue_reverse"] == {"kind": "droptail"}
    assert doc["chain"] == {
        "routers": 3, "rate": "10Mbps", "delay": "1ms",
        "queue": {"kind": "droptail", "limit": "20p"}, "queue_reverse": {"kind": "red"},
    }
    assert doc["monitor"]["queues"] == ["b->c", "r0->r1"]
    res = sc.run()
    assert sorted(res.flows["name"]) == ["bulk0", "bulk1", "full", "voice"]

    db = everything_dumbbell()
    db.validate()
    doc = tomllib.loads(db.to_toml())
    assert doc["dumbbell"]["bottleneck"]["queue_reverse"] == {"kind": "droptail", "limit": "100p"}
    assert doc["dumbbell"]["access_delays"] == ["1ms", "3ms"]
    assert doc["monitor"] == {"flows": "none", "queues": "all"}
    assert len(db.run().flows) == 2


def test_unset_fields_are_left_out_so_core_defaults_apply():
    assert TcpFlow("a", "b").to_dict() == {"from": "a", "to": "b"}
    assert CbrFlow("a", "b").to_dict() == {"from": "a", "to": "b", "type": "cbr"}
    assert RED().to_dict() == {"kind": "red"}
    assert DropTail().to_dict() == {"kind": "droptail"}
    assert Monitor().to_dict() == {}
    text = Scenario("1s", nodes=["a", "b"], links=[Link("a", "b", "1Mbps", "1ms")], flows=[TcpFlow("a", "b")]).to_toml()
    doc = tomllib.loads(text)
    assert doc["simulation"] == {"duration": "1s"}       # no seed: the core's default
    assert doc["link"][0] == {"from": "a", "to": "b", "rate": "1Mbps", "delay": "1ms"}
    # The core fills in its defaults: the run reports NewReno recovery, Reno cc.
    flows = tcpsim.run(text).flows
    assert flows.loc[0, "recovery"] == "newreno" and flows.loc[0, "cc"] == "reno"


def test_repr_shows_only_set_fields():
    assert repr(TcpFlow("s0", "d0", recovery="reno")) == "TcpFlow(from_='s0', to='d0', recovery='reno')"
    assert repr(RED(limit="100p", min_th=20)) == "RED(limit='100p', min_th=20)"
    r = repr(small_dumbbell())
    assert r.startswith("Scenario(duration='3s', seed=3, flows=[TcpFlow(")
    assert "links=" not in r and "nodes=" not in r and "chain=" not in r
    assert "access_delays=['1ms', '6ms']" in r
    assert repr(Monitor()) == "Monitor()"


def test_constructor_rejects_unknown_fields():
    with pytest.raises(TypeError, match="windw"):
        TcpFlow("a", "b", max_windw=10)
    with pytest.raises(TypeError, match="min_thresh"):
        RED(min_thresh=5)


def test_strings_needing_escapes_survive():
    sc = Scenario(
        "1s", nodes=["a", "b"], links=[Link("a", "b", "1Mbps", "1ms")],
        flows=[TcpFlow("a", "b", name='odd "name" \\ with, comma # é')],
    )
    assert Scenario.load(sc.to_toml()) == sc
    assert tcpsim.run(sc.to_toml()).flows.loc[0, "name"] == 'odd "name" \\ with, comma # é'
    # Control characters (a tab, a carriage return) are escaped in TOML but refused in
    # names: they would break CSV rows and messages.
    for bad in ("with\ttab", "cr\rhere"):
        sc.flows[0].name = bad
        with pytest.raises(tcpsim.ScenarioError, match="control characters"):
            sc.validate()


def test_tuples_are_accepted_and_compare_equal_to_lists():
    a = Scenario("1s", nodes=("a", "b"), links=(Link("a", "b", "1Mbps", "1ms"),), flows=(TcpFlow("a", "b"),))
    assert a.nodes == ["a", "b"] and isinstance(a.flows, list)
    assert Scenario.load(a.to_toml()) == a


# ---------------------------------------------------------------------------- round trips


def test_save_then_load_gives_the_same_objects(tmp_path):
    for sc in (small_dumbbell(), everything(), everything_dumbbell()):
        path = sc.save(tmp_path / "sub" / "s.toml")
        assert path.read_text() == sc.to_toml()
        assert Scenario.load(path) == sc
        assert Scenario.load(str(path)) == sc
        assert Scenario.load(sc.to_toml()) == sc
        assert Scenario.from_toml(sc.to_toml()) == sc


def _normalized(doc: dict) -> dict:
    """A TOML document as the objects write it: flows without an explicit type="tcp"."""
    doc = dict(doc)
    if "flow" in doc:
        doc["flow"] = [{k: v for k, v in f.items() if not (k == "type" and v == "tcp")} for f in doc["flow"]]
    return doc


def _scenario_files():
    files = sorted(REPO.glob("examples/**/*.toml")) + sorted(REPO.glob("bench/*.toml"))
    files += sorted(REPO.glob("validation/**/*.toml")) + sorted(REPO.glob("experiments/**/*.toml"))
    return [f for f in files if "[simulation]" in f.read_text(encoding="utf-8")]


def _doc_examples():
    """Every fenced ```toml block with a [simulation] table in docs/*.md."""
    out = []
    for md in sorted((REPO / "docs").glob("**/*.md")):
        text = md.read_text(encoding="utf-8")
        for i, block in enumerate(re.findall(r"```toml\n(.*?)```", text, re.S)):
            if "[simulation]" in block:
                out.append(pytest.param(block, id=f"{md.relative_to(REPO)}#{i}"))
    return out


def _check_round_trip(text: str) -> None:
    sc = Scenario.load(text)
    out = sc.to_toml()
    tcpsim.validate(out)
    assert _normalized(tomllib.loads(out)) == _normalized(tomllib.loads(text))
    assert Scenario.load(out) == sc


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_scenario_file_in_the_repo_round_trips(path):
    assert _scenario_files(), "no scenario files found"
    _check_round_trip(path.read_text(encoding="utf-8"))


def test_there_are_documentation_examples_to_check():
    assert _doc_examples(), "docs/python-api.md should hold at least one ```toml example"


@pytest.mark.parametrize("text", _doc_examples())
def test_every_documentation_example_round_trips(text):
    _check_round_trip(text)


def test_fixture_scenario_round_trips(small_scenario):
    _check_round_trip(small_scenario)


def test_inline_forms_load_like_tables():
    text = """
network = { nodes = ["a", "b"] }
link = [{ from = "a", to = "b", rate = "1Mbps", delay = "1ms", queue = { kind = "red" } }]
flow = [{ from = "a", to = "b", type = "tcp" }, { from = "b", to = "a", type = "cbr", rate = "10Kbps" }]

[simulation]
duration = "1s"
"""
    sc = Scenario.load(text)
    assert sc.nodes == ["a", "b"]
    assert sc.links == [Link("a", "b", "1Mbps", "1ms", queue=RED())]
    assert sc.flows == [TcpFlow("a", "b"), CbrFlow("b", "a", rate="10Kbps")]
    _check_round_trip(text)


# ---------------------------------------------------------------------------- errors


def _error(sc: Scenario) -> tcpsim.ScenarioError:
    with pytest.raises(tcpsim.ScenarioError) as info:
        sc.validate()
    return info.value


def _file_error(text: str) -> str:
    with pytest.raises(tcpsim.ScenarioError) as info:
        tcpsim.validate(text)
    return str(info.value)


@pytest.mark.parametrize(
    "change, key, toml_key",
    [
        (lambda s: setattr(s, "duration", "0s"), "duration", "simulation.duration"),
        (lambda s: setattr(s, "duration", 10), "duration", "simulation.duration"),
        (lambda s: setattr(s, "seed", -1), "seed", "simulation.seed"),
        (lambda s: setattr(s.flows[1], "max_window", 2.5), "flows[1].max_window", "flow[1].max_window"),
        (lambda s: setattr(s.flows[1], "recovery", "no_such_recovery"), "flows[1].recovery", "flow[1].recovery"),
        (lambda s: setattr(s.flows[0], "to", "d7"), "flows[0].to", "flow[0].to"),
        (lambda s: setattr(s.flows[0], "stop", "0s"), "flows[0].stop", "flow[0].stop"),
        (lambda s: s.flows.append(CbrFlow("s0", "d1", rate="fast")), "flows[2].rate", "flow[2].rate"),
        (lambda s: setattr(s.dumbbell.bottleneck, "rate", "10MB"), "dumbbell.bottleneck.rate", "dumbbell.bottleneck.rate"),
        (lambda s: setattr(s.dumbbell.bottleneck.queue, "weight", 2), "dumbbell.bottleneck.queue.weight", "dumbbell.bottleneck.queue.weight"),
        (lambda s: setattr(s.dumbbell.bottleneck.queue, "linterm", 10) or setattr(s.dumbbell.bottleneck.queue, "max_p", 0.1),
         "dumbbell.bottleneck.queue.linterm", "dumbbell.bottleneck.queue.linterm"),
        (lambda s: setattr(s.dumbbell, "access_delays", ["1ms"]), "dumbbell.access_delays", "dumbbell.access_delays"),
        (lambda s: setattr(s.monitor, "queues", ["x->y"]), "monitor.queues", "monitor.queues"),
        (lambda s: setattr(s.monitor, "interval", "0s"), "monitor.interval", "monitor.interval"),
        (lambda s: setattr(s, "nodes", ["r1"]), "dumbbell.pairs", "dumbbell.pairs"),
        (lambda s: s.links.append(Link("s0", "s0", "1Mbps", "1ms")), "links[0].to", "link[0].to"),
        (lambda s: s.links.append(Link("s0", "nowhere", "1Mbps", "1ms")), "links[0].to", "link[0].to"),
        (lambda s: setattr(s, "flows", []), "flows", "flow"),
        (lambda s: s.events.append(Event("1s", "r1->r9", "down")), "events[0].link", "event[0].link"),
        (lambda s: s.events.append(Event("1s", "r1->r2", "fail")), "events[0].action", "event[0].action"),
        (lambda s: s.events.append(Event("9s", "r1->r2", "down")), "events[0].at", "event[0].at"),
        (lambda s: s.events.append(Event("1s", "r1->r2", "rate", value="0bps")), "events[0].value", "event[0].value"),
        (lambda s: setattr(s, "routing", Routing("ospf")), "routing.mode", "routing.mode"),
    ],
)
def test_invalid_objects_name_the_attribute_and_give_the_file_paths_message(change, key, toml_key):
    sc = small_dumbbell()
    change(sc)
    err = _error(sc)
    assert err.key == key
    assert err.toml_key == toml_key
    assert str(err).startswith(f"Scenario.{key}: ")
    # Same rule, same words as the file path (which also names file and line).
    file_message = _file_error(sc.to_toml())
    assert f"key '{toml_key}'" in file_message
    assert file_message.endswith(err.detail)


def test_missing_required_key_names_the_python_field():
    sc = small_dumbbell()
    sc.flows[0].to = None
    err = _error(sc)
    assert err.key == "flows[0]"
    assert "missing key 'to'" in str(err)
    sc = small_dumbbell()
    sc.flows[0].from_ = None
    assert "missing key 'from_'" in str(_error(sc))


def test_wrong_object_types_are_named():
    sc = small_dumbbell(links=[Link("s0", "d0", "1Mbps", "1ms", queue=42)])
    err = _error(sc)
    assert err.key == "links[0].queue" and "queue discipline" in str(err)
    assert "RED(...)" in str(err) and "Model(...)" in str(err)
    sc = small_dumbbell()
    sc.flows[0].cc = 3.5
    assert _error(sc).key == "flows[0].cc"
    sc = small_dumbbell()
    sc.flows.append({"from": "s0", "to": "d0"})
    assert _error(sc).key == "flows[2]"
    sc = small_dumbbell(monitor={"interval": "1s"})
    assert _error(sc).key == "monitor"
    sc = small_dumbbell()
    sc.flows[0].max_window = object()
    assert _error(sc).key == "flows[0].max_window"


def test_validate_and_run_map_network_errors_too():
    # A missing route is found by validation already (the core checks the assembled
    # network when it loads a scenario), and reported on the Python object path.
    sc = Scenario("1s", nodes=["a", "b", "c"], links=[Link("a", "b", "1Mbps", "1ms")], flows=[TcpFlow("a", "c")])
    for action in (sc.validate, sc.run):
        with pytest.raises(tcpsim.ScenarioError, match=r"^Scenario\.flows\[0\]: no route") as info:
            action()
        assert info.value.key == "flows[0]"


def test_load_reports_the_files_own_error_with_file_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(small_dumbbell().to_toml().replace("max_window = 100", "max_windw = 100", 1))
    with pytest.raises(tcpsim.ScenarioError) as info:
        Scenario.load(path)
    message = str(info.value)
    assert message.startswith(str(path))
    assert "line " in message and "key 'flow[0].max_windw'" in message and "unknown key 'max_windw'" in message
    assert message == _file_error(path)


def test_from_dict_rejects_unknown_keys_by_name():
    base = tomllib.loads(small_dumbbell().to_toml())
    for mutate, key in [
        (lambda d: d["flow"][1].__setitem__("max_windw", 3), "flows[1].max_windw"),
        (lambda d: d["dumbbell"]["bottleneck"]["queue"].__setitem__("minth", 3), "dumbbell.bottleneck.queue.minth"),
        (lambda d: d.__setitem__("monitors", {}), "monitors"),
        (lambda d: d["simulation"].__setitem__("sed", 3), "sed"),
        (lambda d: d["flow"][0].__setitem__("type", "udp"), "flows[0].type"),
        (lambda d: d["dumbbell"]["bottleneck"]["queue"].__setitem__("kind", "choke"), "dumbbell.bottleneck.queue.kind"),
        (lambda d: d["flow"][1].pop("to"), "flows[1]"),
        (lambda d: d["dumbbell"]["access"].pop("rate"), "dumbbell.access"),
    ]:
        doc = tomllib.loads(small_dumbbell().to_toml())
        mutate(doc)
        with pytest.raises(tcpsim.ScenarioError) as info:
            Scenario.from_dict(doc)
        assert info.value.key == key, str(info.value)
    assert Scenario.from_dict(base) == small_dumbbell()


def test_python_key_mapping():
    assert python_key("flow[1].rate") == "flows[1].rate"
    assert python_key("link[0].from") == "links[0].from_"
    assert python_key("link[0].queue.limit") == "links[0].queue.limit"
    assert python_key("simulation.duration") == "duration"
    assert python_key("network.nodes") == "nodes"
    assert python_key("flow") == "flows"
    assert python_key("dumbbell.access.delay") == "dumbbell.access.delay"
    assert python_key("monitor.flows") == "monitor.flows"
    assert python_key("flows") == "flows"          # an unknown top-level key stays as written
    assert python_key("linkage.x") == "linkage.x"


# ---------------------------------------------------------------------------- docs


def test_python_api_doc_examples_run(monkeypatch, capsys):
    """Every ```python block of docs/python-api.md, in order, in one namespace."""
    text = (REPO / "docs" / "python-api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    monkeypatch.chdir(REPO)
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/python-api.md[python block {i}]", "exec"), namespace)
    out = capsys.readouterr().out
    assert "Scenario.flows[1].rate: expected a rate" in out
    # The TOML shown in the page is what the first example writes.
    shown = re.findall(r"```toml\n(.*?)```", text, re.S)[0]
    assert namespace["sc"].to_toml() == shown


# ---------------------------------------------------------------------------- registry


def test_every_registered_parameter_is_a_field():
    """The flow classes read the registry: each agent's parameters are fields."""
    from tcpsim import models
    from tcpsim.scenario import FLOW_TYPES

    assert set(FLOW_TYPES) == {m.name for m in models.models("agent")}
    for spec in models.models("agent"):
        fields = {f.name for f in __import__("dataclasses").fields(FLOW_TYPES[spec.name])}
        assert set(spec.param_names) <= fields, spec.name
    assert {"cc", "recovery", "receiver"} <= {f.name for f in __import__("dataclasses").fields(TcpFlow)}
    link_keys = {f.name for f in __import__("dataclasses").fields(Link)}
    for fam in models.families(with_models=True):
        if fam.scope == "link":
            assert {fam.key, fam.key + "_reverse"} <= link_keys


def test_parameters_the_old_classes_lacked_are_accepted():
    sc = small_dumbbell()
    sc.flows[0].ecn = False
    sc.flows[0].rtt_hint = "srtt"
    sc.validate()
    assert "rtt_hint = \"srtt\"" in sc.to_toml()


def test_models_as_names_dicts_and_model_objects():
    sc = small_dumbbell(flows=[
        TcpFlow("s0", "d0", cc="reno", recovery=tcpsim.Model("tahoe"),
                receiver={"kind": "delayed", "timeout": "40ms"}),
        TcpFlow("s1", "d1", receiver=tcpsim.Model("delayed", timeout="20ms")),
    ])
    sc.dumbbell.bottleneck.queue = "red"
    sc.dumbbell.access.queue = tcpsim.Model("droptail", limit="200p")
    sc.validate()
    doc = tomllib.loads(sc.to_toml())
    assert doc["flow"][0]["cc"] == "reno" and doc["flow"][0]["recovery"] == {"kind": "tahoe"}
    assert doc["flow"][0]["receiver"] == {"kind": "delayed", "timeout": "40ms"}
    assert doc["dumbbell"]["bottleneck"]["queue"] == "red"
    assert doc["dumbbell"]["access"]["queue"] == {"kind": "droptail", "limit": "200p"}
    assert "receiver = { kind = \"delayed\", timeout = \"20ms\" }" in sc.to_toml()
    loaded = Scenario.load(sc.to_toml())
    assert loaded == sc
    assert isinstance(loaded.flows[1].receiver, tcpsim.Model)
    assert isinstance(loaded.dumbbell.access.queue, DropTail)
    res = sc.run()
    assert list(res.flows["recovery"]) == ["tahoe", "newreno"]


def test_unknown_fields_are_named_with_the_closest_one():
    with pytest.raises(TypeError, match="did you mean 'max_window'"):
        TcpFlow("a", "b", max_windw=10)
    with pytest.raises(TypeError, match="did you mean 'jitter'"):
        CbrFlow("a", "b", jiter=True)
    flow = TcpFlow("a", "b")
    with pytest.raises(AttributeError, match="did you mean 'initial_window'"):
        flow.initial_windw = 4
    with pytest.raises(AttributeError, match="did you mean 'queue'"):
        LinkSpec("1Mbps", "1ms").queu = "red"
    with pytest.raises(AttributeError, match="did you mean 'seed'"):
        Scenario("1s").sed = 3


def test_model_names_and_values_are_checked_by_the_core():
    sc = small_dumbbell()
    sc.flows[0].cc = "vegsa"
    err = _error(sc)
    assert err.key == "flows[0].cc" and "unknown congestion control" in str(err)
    sc = small_dumbbell()
    sc.flows[0].receiver = tcpsim.Model("delayed", timeout="-1ms")
    assert _error(sc).key == "flows[0].receiver.timeout"


def test_from_dict_checks_model_tables_against_the_registry():
    doc = tomllib.loads(small_dumbbell().to_toml())
    doc["flow"][0]["cc"] = "rneo"
    with pytest.raises(tcpsim.ScenarioError, match="did you mean 'reno'") as info:
        Scenario.from_dict(doc)
    assert info.value.key == "flows[0].cc"
    doc = tomllib.loads(small_dumbbell().to_toml())
    doc["flow"][0]["receiver"] = {"kind": "delayed", "timout": "1ms"}
    with pytest.raises(tcpsim.ScenarioError, match="did you mean 'timeout'") as info:
        Scenario.from_dict(doc)
    assert info.value.key == "flows[0].receiver.timout"
    doc["flow"][0]["receiver"] = {"timeout": "1ms"}
    with pytest.raises(tcpsim.ScenarioError, match="missing key 'kind'"):
        Scenario.from_dict(doc)


def test_flow_class_of_each_agent():
    assert tcpsim.flow_class("cbr") is CbrFlow and tcpsim.flow_class("tcp") is TcpFlow
    with pytest.raises(tcpsim.ScenarioError, match="did you mean 'cbr'"):
        tcpsim.flow_class("cbrr")


def test_objects_pickle():
    import pickle

    sc = small_dumbbell()
    sc.flows[0].receiver = tcpsim.Model("delayed", timeout="40ms")
    assert pickle.loads(pickle.dumps(sc)) == sc


def test_trace_table_round_trips_and_writes_files_under_out(tmp_path):
    from tcpsim import Trace
    sc = Scenario(
        duration="1s",
        dumbbell=Dumbbell(pairs=1, bottleneck=LinkSpec("10Mbps", "10ms"), access=LinkSpec("100Mbps", "1ms")),
        flows=[TcpFlow("s0", "d0")],
        trace=Trace(ns2=["r1->r2"], pcap_links=["r1->r2"], pcap_nodes=["d0"]),
    )
    text = sc.to_toml()
    assert "[trace]" in text
    assert Scenario.from_toml(text).trace.ns2 == ["r1->r2"]
    res = sc.run(out=tmp_path / "run")
    files = sorted(p.name for p in (tmp_path / "run" / "traces").iterdir())
    assert files == ["node-d0.pcap", "r1-r2.pcap", "trace.tr"]
    lines = (tmp_path / "run" / "traces" / "trace.tr").read_text().splitlines()
    sent = int(res.links.set_index("link").loc["r1->r2", "packets_sent"])
    assert sum(1 for l in lines if l.startswith("- ")) == sent
    with pytest.raises(tcpsim.ScenarioError, match="unknown link"):
        Scenario.from_dict({**sc.to_dict(), "trace": {"ns2": ["r1->r9"]}}).validate()


def test_scenario_run_takes_overrides_and_seed():
    """`Scenario.run` hands `overrides` and `seed` to `tcpsim.run` (docs/scenario.md,
    "Changing keys from the command line")."""
    import tcpsim as _tcpsim

    sc = _tcpsim.Scenario.from_toml(
        '[simulation]\nduration = "1s"\n[dumbbell]\npairs = 1\n'
        '[dumbbell.bottleneck]\nrate = "5Mbps"\ndelay = "10ms"\n'
        '[dumbbell.access]\nrate = "100Mbps"\ndelay = "1ms"\n'
        '[[flow]]\nfrom = "s0"\nto = "d0"\n')
    res = sc.run(seed=4, overrides={"flow[0].cc": "vegas"})
    assert res.summary["overrides"] == {"flow[0].cc": "vegas", "simulation.seed": 4}
    assert res.flows["cc"].tolist() == ["vegas"] and res.summary["seed"] == 4


def test_events_and_routing_are_written_and_run():
    # r1-r2 is the dumbbell's only path: down for a second, every packet sent to it in
    # that second is dropped there (dynamic routing keeps the route it cannot replace).
    sc = small_dumbbell(
        routing=Routing(mode="dynamic"),
        events=[Event("1s", "r1->r2", "down"), Event("2s", "r2->r1", "up"),
                Event("2.5s", "r1->r2", "rate", value="1Mbps", direction="forward")],
    )
    doc = tomllib.loads(sc.to_toml())
    assert doc["routing"] == {"mode": "dynamic"}
    assert doc["event"][2] == {"at": "2.5s", "link": "r1->r2", "action": "rate", "value": "1Mbps", "direction": "forward"}
    assert Scenario.load(sc.to_toml()) == sc
    links = sc.run().links.set_index("link")
    assert links.loc["r1->r2", "down_drops"] > 0
    assert links.loc["s0->r1", "down_drops"] == 0
    assert links.loc["r1->r2", "rate_bps"] == 5_000_000, "the table gives the scenario's rate"


def test_flow_common_keys_are_the_cores():
    # read from the core with the registry (start_jitter came with issue 18), never retyped
    from tcpsim import models

    assert "start_jitter" in models.FLOW_COMMON_KEYS
    assert "start_jitter='1ms'" in repr(TcpFlow("a", "b", start_jitter="1ms"))
    flows = tomllib.loads(everything().to_toml())["flow"]
    assert flows[1]["start_jitter"] == "5ms"
