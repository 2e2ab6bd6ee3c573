//! Building a simulation from a scenario: link directions, queues, routes, agents.

use super::{Endpoints, Flow, Simulation};
use crate::app::CbrSource;
use crate::engine::{time, PacketArena, RandomStream, Scheduler};
use crate::monitor::TimeSeries;
use crate::net::routing::{path, Graph};
use crate::net::LinkDirection;
use crate::scenario::{FlowKind, Scenario, ScenarioError};
use crate::tcp::{TcpReceiver, TcpSender};
use std::collections::HashMap;

pub(super) fn build(scenario: &Scenario) -> Result<Simulation<'_>, ScenarioError> {
    let mut links = Vec::with_capacity(scenario.links.len() * 2);
    let mut graph = Graph::new(scenario.nodes.len());
    for l in &scenario.links {
        for (from, to, queue) in [(l.a, l.b, &l.queue_ab), (l.b, l.a, &l.queue_ba)] {
            let name = scenario.queue_name(from, to);
            let random = RandomStream::new(scenario.seed, &format!("queue {name}"));
            let id = links.len() as u32;
            links.push(LinkDirection::new(from, to, l.rate_bps, l.delay, queue.build(l.rate_bps, random)));
            graph.add(from, to, id);
        }
    }

    let largest_packet = scenario.flows.iter().map(|f| match &f.kind {
        FlowKind::Tcp(p) => p.packet_size + p.header_size,
        FlowKind::Cbr(p) => p.packet_size,
    });
    let largest_packet = largest_packet.max().unwrap_or(0);
    for l in &scenario.links {
        for queue in [&l.queue_ab, &l.queue_ba] {
            queue.capacity_check(largest_packet).map_err(|expected| ScenarioError {
                file: scenario.file.clone(),
                line: l.line,
                key: "queue.limit".to_string(),
                message: format!("expected {expected}"),
            })?;
        }
    }

    let mut trees = HashMap::new();
    let mut route_between = |from: usize, to: usize| -> Option<Vec<u32>> {
        let tree = trees.entry(from).or_insert_with(|| graph.tree(from));
        path(tree, from, to)
    };
    let mut routes = Vec::new();
    let mut flows = Vec::with_capacity(scenario.flows.len());
    for (i, f) in scenario.flows.iter().enumerate() {
        let unreachable = |a: usize, b: usize| {
            scenario.flow_error(i, format!("no route from \"{}\" to \"{}\": expected links connecting them", scenario.nodes[a], scenario.nodes[b]))
        };
        let data = route_between(f.from, f.to).ok_or_else(|| unreachable(f.from, f.to))?;
        let ack = route_between(f.to, f.from).ok_or_else(|| unreachable(f.to, f.from))?;
        routes.push(data);
        routes.push(ack);
        let random = RandomStream::new(scenario.seed, &format!("flow {}", f.name));
        flows.push(make_flow(f, random, (routes.len() - 2) as u32, (routes.len() - 1) as u32));
    }

    let series = scenario.monitor.interval.map(|interval| {
        let mut s = TimeSeries::new(interval);
        for (i, f) in scenario.flows.iter().enumerate() {
            if scenario.monitor.flows.includes(&f.name) {
                let e = s.add_entity(f.name.clone());
                s.flow_entities.push((i, e));
            }
        }
        for (i, l) in links.iter().enumerate() {
            let name = scenario.queue_name(l.from, l.to);
            if scenario.monitor.queues.includes(&name) {
                let e = s.add_entity(name);
                s.queue_entities.push((i, e));
                s.queue_previous.push([0; 4]);
            }
        }
        s
    });

    Ok(Simulation {
        scenario,
        sched: Scheduler::default(),
        packets: PacketArena::default(),
        links,
        routes,
        flows,
        series,
    })
}

fn make_flow(f: &crate::scenario::FlowSpec, mut random: RandomStream, data_route: u32, ack_route: u32) -> Flow {
    match &f.kind {
        FlowKind::Tcp(p) => {
            // ns-2 boot_time_: each agent's clock has a random phase within a tick.
            let clock_phase = random.uniform() * time::to_secs(p.clock_granularity);
            Flow {
                data_route,
                ack_route,
                data_size: p.packet_size + p.header_size,
                payload: p.packet_size,
                ack_size: p.ack_size,
                syn: p.syn,
                header_size: p.header_size,
                endpoints: Endpoints::Tcp {
                    sender: Box::new(TcpSender::new(p.clone(), clock_phase)),
                    receiver: TcpReceiver::new(p.receiver),
                    rtx_generation: 0,
                    rtx_event_at: None,
                    delack_generation: 0,
                },
                drops: 0,
                received_bytes: 0,
                delivered_since_sample: 0,
            }
        }
        FlowKind::Cbr(p) => Flow {
            data_route,
            ack_route,
            data_size: p.packet_size,
            payload: p.packet_size,
            ack_size: 0,
            syn: false,
            header_size: 0,
            endpoints: Endpoints::Cbr { source: CbrSource::new(p.clone(), random), packets_received: 0 },
            drops: 0,
            received_bytes: 0,
            delivered_since_sample: 0,
        },
    }
}
