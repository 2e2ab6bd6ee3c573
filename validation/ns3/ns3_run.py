"""Run dumbbell cases in ns-3 (the PyPI wheel ``ns3``) and print their counters as JSON.

Run by harness.py in a subprocess, because importing ns-3 through cppyy takes 10-20 s:
one process runs every case it is given, one after another (``Simulator::Destroy``
between them). Input: a JSON list of cases on standard input, each

    {"name": ..., "network": {...}, "tcp": {...}, "queue": {...}, "ns3_defaults": {...}}

as harness.ns3_case builds it from a case's tcpsim TOML (the one description of the
network). Output: one JSON object per case on its own line, prefixed ``ns3-case ``.

The network is a dumbbell: s{i} --access--> r1 ==bottleneck==> r2 --access--> d{i}, one
BulkSend application (s{i}) and PacketSink (d{i}) per flow. Every link direction gets
the queue disc the case names (the access links a FIFO of the access limit), installed
before the addresses so that ns-3 does not add its default FqCoDel; the device queue
under it holds one packet (the queue disc sees the backlog, as a Linux qdisc does
over a small driver ring under BQL).
"""

from __future__ import annotations

import json
import sys
import time

# C++ helpers compiled by cling: trace sinks and attribute listing are simpler and far
# faster in C++ than as Python callbacks through cppyy.
_CPP_HELPERS = r"""
#include <unordered_map>
#include <vector>
#include <sstream>

namespace tcpsim_ns3
{
// Waiting time of each packet from its arrival at a queue disc to the start of its
// transmission on the device below it (queue disc + device queue), matched by uid.
struct WaitProbe
{
    std::unordered_map<uint64_t, int64_t> arrived_ns;
    std::vector<double> waits_s;
    int64_t from_ns = 0;  // packets arriving earlier are not recorded

    void Enqueued(ns3::Ptr<const ns3::QueueDiscItem> item)
    {
        int64_t now = ns3::Simulator::Now().GetNanoSeconds();
        if (now >= from_ns)
        {
            arrived_ns[item->GetPacket()->GetUid()] = now;
        }
    }

    void TxBegin(ns3::Ptr<const ns3::Packet> packet)
    {
        auto it = arrived_ns.find(packet->GetUid());
        if (it != arrived_ns.end())
        {
            waits_s.push_back((ns3::Simulator::Now().GetNanoSeconds() - it->second) * 1e-9);
            arrived_ns.erase(it);
        }
    }
};

void
Watch(ns3::Ptr<ns3::QueueDisc> disc, ns3::Ptr<ns3::NetDevice> device, WaitProbe* probe)
{
    disc->TraceConnectWithoutContext("Enqueue", ns3::MakeCallback(&WaitProbe::Enqueued, probe));
    device->TraceConnectWithoutContext("PhyTxBegin", ns3::MakeCallback(&WaitProbe::TxBegin, probe));
}

// Window reductions of one TCP sender, from its congestion-state changes: entering
// CA_RECOVERY is a fast retransmit, entering CA_LOSS a retransmission timeout.
struct StateCounter
{
    uint32_t fast_recoveries = 0;
    uint32_t timeouts = 0;

    void Changed(ns3::TcpSocketState::TcpCongState_t, ns3::TcpSocketState::TcpCongState_t now)
    {
        fast_recoveries += now == ns3::TcpSocketState::CA_RECOVERY;
        timeouts += now == ns3::TcpSocketState::CA_LOSS;
    }
};

// The BulkSend application makes its socket when it starts: watch it just after.
void
WatchSender(ns3::Ptr<ns3::Application> bulk_send, ns3::Time after_start, StateCounter* counter)
{
    ns3::Simulator::Schedule(after_start, [bulk_send, counter]() {
        auto app = ns3::DynamicCast<ns3::BulkSendApplication>(bulk_send);
        app->GetSocket()->TraceConnectWithoutContext(
            "CongState", ns3::MakeCallback(&StateCounter::Changed, counter));
    });
}

// Every change of one sender's congestion window (bytes), for the window-shape metric.
struct CwndProbe
{
    std::vector<double> times_s;
    std::vector<double> cwnd_bytes;

    void Changed(uint32_t, uint32_t now)
    {
        times_s.push_back(ns3::Simulator::Now().GetSeconds());
        cwnd_bytes.push_back(now);
    }
};

void
WatchCwnd(ns3::Ptr<ns3::Application> bulk_send, ns3::Time after_start, CwndProbe* probe)
{
    ns3::Simulator::Schedule(after_start, [bulk_send, probe]() {
        auto app = ns3::DynamicCast<ns3::BulkSendApplication>(bulk_send);
        app->GetSocket()->TraceConnectWithoutContext(
            "CongestionWindow", ns3::MakeCallback(&CwndProbe::Changed, probe));
    });
}

// Every change of one sender's cwnd (bytes) and pacing rate (bit/s), with its time:
// the window control's own time series (case BBR: its gain cycle and ProbeRTT).
struct ControlTrace
{
    std::vector<double> cwnd_t, cwnd_bytes, pacing_t, pacing_bps;

    void Cwnd(uint32_t, uint32_t now)
    {
        cwnd_t.push_back(ns3::Simulator::Now().GetSeconds());
        cwnd_bytes.push_back(now);
    }

    void Pacing(ns3::DataRate, ns3::DataRate now)
    {
        pacing_t.push_back(ns3::Simulator::Now().GetSeconds());
        pacing_bps.push_back(static_cast<double>(now.GetBitRate()));
    }
};

void
TraceControl(ns3::Ptr<ns3::Application> bulk_send, ns3::Time after_start, ControlTrace* trace)
{
    ns3::Simulator::Schedule(after_start, [bulk_send, trace]() {
        auto socket = ns3::DynamicCast<ns3::BulkSendApplication>(bulk_send)->GetSocket();
        socket->TraceConnectWithoutContext("CongestionWindow", ns3::MakeCallback(&ControlTrace::Cwnd, trace));
        socket->TraceConnectWithoutContext("PacingRate", ns3::MakeCallback(&ControlTrace::Pacing, trace));
    });
}

// Fixed random streams for a queue disc that draws (PIE): ns-3 numbers the streams it
// assigns itself from a counter that runs on across cases in one process, so without
// this a case's draws would depend on the cases run before it.
void
FixStreams(ns3::Ptr<ns3::QueueDisc> disc, int64_t first_stream)
{
    if (auto pie = ns3::DynamicCast<ns3::PieQueueDisc>(disc))
    {
        pie->AssignStreams(first_stream);
    }
}

// "Name=value" for every attribute of an object (its class and its parents), one a line.
std::string
Attributes(ns3::Ptr<ns3::Object> object)
{
    std::ostringstream out;
    for (ns3::TypeId tid = object->GetInstanceTypeId();; tid = tid.GetParent())
    {
        for (uint32_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            ns3::TypeId::AttributeInformation info = tid.GetAttribute(i);
            if (!(info.flags & ns3::TypeId::ATTR_GET))
            {
                continue;
            }
            ns3::Ptr<ns3::AttributeValue> value = info.checker->Create();
            object->GetAttribute(info.name, *value);
            out << tid.GetName() << "::" << info.name << "=" << value->SerializeToString(info.checker) << "\n";
        }
        if (tid == tid.GetParent())
        {
            break;
        }
    }
    return out.str();
}
} // namespace tcpsim_ns3
"""


def _load_ns3():
    from ns import ns  # the slow import (cppyy parses the ns-3 headers)

    ns.cppyy.cppdef(_CPP_HELPERS)
    return ns


def _set_defaults(ns, defaults: dict[str, str]) -> None:
    for path, value in defaults.items():
        ns.Config.SetDefault(path, ns.StringValue(str(value)))


def _link(ns, p2p, a, b, rate: str, delay: str):
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
    p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
    return p2p.Install(a, b)


def _install_disc(ns, device, disc_type: str, attributes: dict[str, str]):
    helper = ns.TrafficControlHelper()
    helper.SetRootQueueDisc(disc_type)
    disc = helper.Install(device).Get(0)
    for name, value in attributes.items():
        disc.SetAttribute(name, ns.StringValue(str(value)))
    return disc


def run_case(ns, case: dict) -> dict:
    """Build one dumbbell, run it, and return its counters."""
    net, tcp, queue = case["network"], case["tcp"], case["queue"]
    _set_defaults(ns, case["ns3_defaults"])
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(int(case.get("run", 1)))

    pairs = net["pairs"]
    senders, receivers, routers = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    senders.Create(pairs)
    receivers.Create(pairs)
    routers.Create(2)
    r1, r2 = routers.Get(0), routers.Get(1)
    ns.InternetStackHelper().InstallAll()

    p2p = ns.PointToPointHelper()
    # (device pair, queue disc type, attributes) of each link, addressed after the discs.
    links = []
    access_fifo = ("ns3::FifoQueueDisc", {"MaxSize": f"{net['access_disc_limit']}p"})
    for i in range(pairs):
        links.append((_link(ns, p2p, senders.Get(i), r1, net["access_rate"], net["access_delays"][i]),
                      access_fifo, access_fifo))
    bottleneck = _link(ns, p2p, r1, r2, net["bottleneck_rate"], net["bottleneck_delay"])
    disc = (queue["type"], queue["attributes"])
    links.append((bottleneck, disc, disc))
    for i in range(pairs):
        links.append((_link(ns, p2p, r2, receivers.Get(i), net["access_rate"], net["receiver_delay"]),
                      access_fifo, access_fifo))

    discs = []
    for devices, forward, backward in links:
        discs.append((_install_disc(ns, devices.Get(0), *forward),
                      _install_disc(ns, devices.Get(1), *backward)))
    address = ns.Ipv4AddressHelper()
    interfaces = []
    for k, (devices, _, _) in enumerate(links):
        address.SetBase(ns.Ipv4Address(f"10.{k // 250}.{k % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces.append(address.Assign(devices))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    bottleneck_disc = discs[pairs][0]
    helpers = ns.cppyy.gbl.tcpsim_ns3
    for stream, disc in enumerate(discs[pairs]):
        helpers.FixStreams(disc, stream)
    probe = helpers.WaitProbe()
    probe.from_ns = int(net["measure_from_s"] * 1e9)
    helpers.Watch(bottleneck_disc, bottleneck.Get(0), probe)

    port = 5000
    sinks, sources, counters, controls = [], [], [], []
    cwnd_probe = helpers.CwndProbe()
    stop = ns.Seconds(net["duration_s"])
    for i in range(pairs):
        receiver_address = interfaces[pairs + 1 + i].GetAddress(1)
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory",
            ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        sink_apps = sink_helper.Install(receivers.Get(i))
        sink_apps.Start(ns.Seconds(0.0))
        sink_apps.Stop(stop)
        sinks.append(sink_apps.Get(0))
        source_helper = ns.BulkSendHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(receiver_address, port).ConvertTo())
        source_helper.SetAttribute("SendSize", ns.UintegerValue(tcp["segment_bytes"]))
        source_apps = source_helper.Install(senders.Get(i))
        source_apps.Start(ns.Seconds(net["starts_s"][i]))
        source_apps.Stop(stop)
        sources.append(source_apps.Get(0))
        counter = helpers.StateCounter()
        counters.append(counter)
        # a nanosecond after the application starts: its socket exists, nothing is sent yet
        helpers.WatchSender(source_apps.Get(0), ns.Seconds(net["starts_s"][i]) + ns.NanoSeconds(1), counter)
        if case.get("cwnd_flow") == i:
            helpers.WatchCwnd(source_apps.Get(0), ns.Seconds(net["starts_s"][i]) + ns.NanoSeconds(1), cwnd_probe)
        if case.get("trace_control"):
            control = helpers.ControlTrace()
            controls.append(control)
            helpers.TraceControl(source_apps.Get(0), ns.Seconds(net["starts_s"][i]) + ns.NanoSeconds(1), control)

    wall0 = time.perf_counter()
    ns.Simulator.Stop(stop)
    ns.Simulator.Run()
    wall = time.perf_counter() - wall0

    stats = bottleneck_disc.GetStats()
    device_queue = bottleneck.Get(0).GetQueue()
    result = {
        "name": case["name"],
        "sink_bytes": [int(s.GetTotalRx()) for s in sinks],
        "fast_recoveries": [int(c.fast_recoveries) for c in counters],
        "timeouts": [int(c.timeouts) for c in counters],
        "bottleneck_arrivals": int(stats.nTotalReceivedPackets),
        "bottleneck_drops": int(stats.nTotalDroppedPackets),
        "bottleneck_marks": int(stats.nTotalMarkedPackets),
        "device_queue_drops": int(device_queue.GetTotalDroppedPackets()),
        # the disc's own reason strings ("Forced drop", "Target exceeded drop", ...)
        "drop_reasons": {str(kv.first): int(kv.second)
                         for table in (stats.nDroppedPacketsBeforeEnqueue, stats.nDroppedPacketsAfterDequeue)
                         for kv in table},
        "waits_s": list(probe.waits_s),
        "disc_attributes": str(helpers.Attributes(bottleneck_disc)).splitlines(),
        "wall_s": wall,
        # (time s, cwnd bytes) at each change of flow cwnd_flow's window (empty without one)
        "cwnd_trace": list(zip(list(cwnd_probe.times_s), list(cwnd_probe.cwnd_bytes))),
    }
    if controls:
        # per flow: [[times], [values]] of every change
        result["cwnd_bytes"] = [[list(c.cwnd_t), list(c.cwnd_bytes)] for c in controls]
        result["pacing_bps"] = [[list(c.pacing_t), list(c.pacing_bps)] for c in controls]
    ns.Simulator.Destroy()
    return result


def main() -> int:
    cases = json.load(sys.stdin)
    t0 = time.perf_counter()
    ns = _load_ns3()
    print(f"ns3-import {json.dumps({'seconds': time.perf_counter() - t0})}", flush=True)
    for case in cases:
        print(f"ns3-case {json.dumps(run_case(ns, case))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
