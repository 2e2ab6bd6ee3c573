"""Differential case PIE: ns-3's PieQueueDisc and tcpsim's `pie` under the same open-loop
overload, compared on what the controller decides.

A 15 Mb/s constant-rate UDP stream of 1000-byte packets enters a 10 Mb/s, 10 ms link
whose queue is PIE at its defaults with a 1000-packet limit; 30 s, measured from 10 s.
PIE must drop about a third of the arrivals and hold the queueing delay at its 15 ms
target; what the case compares is the mean queueing delay of the delivered packets
(ns-3: the one-way delay of the flow monitor less the fixed part; tcpsim: the queue's
mean sojourn) and the fraction of packets PIE dropped, once with each delay estimator
(ns-3's UseDequeueRateEstimator false and true; tcpsim's `delay_estimator = "timestamp"`
and `"rate"`). ns-3's network device queue is cut to one packet so that every waiting
packet waits in the queue disc, as in tcpsim.

    python validation/ns3/case_pie.py          # prints both sides and the verdicts

Needs the `ns3` wheel (3.44.post0); tests/test_ns3_pie.py skips without it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict

HERE = Path(__file__).resolve().parent
TWIN = HERE / "case_pie_cbr.toml"

RATE_BPS = 10e6
DELAY_S = 0.010
# Packets of 1000 B on the wire at 1875 a second (15 Mb/s): ns-3's UDP payload of 970 B
# gains 8 B of UDP, 20 of IP and 2 of PPP; its OnOff rate counts the payload alone.
PACKET_BYTES = 1000
NS3_PAYLOAD_BYTES = PACKET_BYTES - 8 - 20 - 2
PACKETS_PER_S = 1875
NS3_APP_RATE_BPS = PACKETS_PER_S * NS3_PAYLOAD_BYTES * 8
DURATION_S = 30.0
MEASURE_FROM_S = 10.0
# What a delivered packet spends outside the queue disc while the queue is busy: its
# propagation, its own transmission and, in ns-3's one-packet device queue, the
# transmission of the packet ahead of it (the queue disc hands a packet down when the
# device queue has room, that is when the one before starts on the wire).
TRANSMISSION_S = PACKET_BYTES * 8 / RATE_BPS
FIXED_DELAY_S = DELAY_S + 2 * TRANSMISSION_S

# The tolerances: the two controllers follow the same law from the same defaults, but
# ns-3 starts its burst allowance at the first early-drop test and holds p at 0 while it
# lasts, and its random draws differ: the steady state should agree closely.
DELAY_TOLERANCE_S = 0.001
DROP_FRACTION_TOLERANCE = 0.005


ESTIMATORS = ("timestamp", "rate")


def run_ns3(estimator: str) -> Dict[str, float]:
    from ns import ns  # 10-20 s the first time: cppyy compiles the bindings

    ns.Config.SetDefault("ns3::PieQueueDisc::MaxSize", ns.QueueSizeValue(ns.QueueSize("1000p")))
    nodes = ns.NodeContainer()
    nodes.Create(2)
    link = ns.PointToPointHelper()
    link.SetDeviceAttribute("DataRate", ns.StringValue(f"{int(RATE_BPS)}bps"))
    link.SetChannelAttribute("Delay", ns.StringValue(f"{int(DELAY_S * 1000)}ms"))
    link.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue("1p"))
    devices = link.Install(nodes)
    stack = ns.InternetStackHelper()
    stack.Install(nodes)
    tc = ns.TrafficControlHelper()
    tc.SetRootQueueDisc("ns3::PieQueueDisc", "UseDequeueRateEstimator", ns.BooleanValue(estimator == "rate"))
    qdiscs = tc.Install(devices)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)

    port = 9
    sink_address = ns.InetSocketAddress(interfaces.GetAddress(1), port).ConvertTo()
    source = ns.OnOffHelper("ns3::UdpSocketFactory", sink_address)
    source.SetConstantRate(ns.DataRate(f"{NS3_APP_RATE_BPS}bps"), NS3_PAYLOAD_BYTES)
    apps = source.Install(nodes.Get(0))
    apps.Start(ns.Seconds(0.0))
    apps.Stop(ns.Seconds(DURATION_S))
    any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
    sink = ns.PacketSinkHelper("ns3::UdpSocketFactory", any_address)
    sink.Install(nodes.Get(1)).Start(ns.Seconds(0.0))

    flowmon = ns.FlowMonitorHelper()
    monitor = flowmon.InstallAll()
    # Run to the start of the measurement, note the counters, run on (no Python
    # callbacks inside the simulation).
    ns.Simulator.Stop(ns.Seconds(MEASURE_FROM_S))
    ns.Simulator.Run()
    before = qdiscs.Get(0).GetStats()
    received_before, dropped_before = before.nTotalReceivedPackets, before.nTotalDroppedPackets
    monitor.ResetAllStats()
    ns.Simulator.Stop(ns.Seconds(DURATION_S + 1.0 - MEASURE_FROM_S))
    ns.Simulator.Run()

    flow = next(iter(monitor.GetFlowStats()))
    delivered = flow.second.rxPackets
    mean_delay = flow.second.delaySum.GetSeconds() / max(delivered, 1)
    s = qdiscs.Get(0).GetStats()
    arrived = s.nTotalReceivedPackets - received_before
    dropped = s.nTotalDroppedPackets - dropped_before
    ns.Simulator.Destroy()
    return {"queueing_delay_s": mean_delay - FIXED_DELAY_S, "drop_fraction": dropped / arrived}


def run_tcpsim(estimator: str) -> Dict[str, float]:
    import tcpsim

    text = TWIN.read_text(encoding="utf-8").replace('kind = "pie"', f'kind = "pie", delay_estimator = "{estimator}"')
    queue = tcpsim.run(text).queues.set_index("queue").loc["a->b"]
    return {"queueing_delay_s": float(queue["mean_sojourn_s"]), "drop_fraction": float(queue["early_drops"] + queue["overflow_drops"]) / float(queue["arrivals"])}


def compare(ns3: Dict[str, float], ours: Dict[str, float]) -> Dict[str, bool]:
    """The verdict of each metric: within its tolerance."""
    return {
        "queueing_delay_s": abs(ns3["queueing_delay_s"] - ours["queueing_delay_s"]) <= DELAY_TOLERANCE_S,
        "drop_fraction": abs(ns3["drop_fraction"] - ours["drop_fraction"]) <= DROP_FRACTION_TOLERANCE,
    }


def main() -> int:
    passed = True
    for estimator in ESTIMATORS:
        ns3, ours = run_ns3(estimator), run_tcpsim(estimator)
        for metric, ok in compare(ns3, ours).items():
            print(f"{estimator:9s} {metric:18s} ns-3 {ns3[metric]:.5f}  tcpsim {ours[metric]:.5f}  {'pass' if ok else 'FAIL'}")
            passed = passed and ok
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
