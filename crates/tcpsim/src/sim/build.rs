//! Building a simulation from a scenario: link directions, queues, routes, agents.

use super::{Flow, Simulation};
use crate::agent::AgentOutputs;
use crate::cost::Limits;
use crate::engine::{time, PacketArena, RandomStream, Scheduler};
use crate::monitor::timeseries::GroupSeries;
use crate::monitor::TimeSeries;
use crate::net::link::{LinkErrors, LinkHead};
use crate::net::routing::{path, Graph, RouteTable, Routes};
use crate::net::LinkDirection;
use crate::queue::{QueueEnv, QueueLink};
use crate::scenario::{LinkChange, Scenario, ScenarioError};
use std::collections::HashMap;

// What each flow of a large network costs, pinned so that it does not grow silently
// (issue 22: a million flows in one run; docs/performance.md, "A million flows"). A B2
// flow owns four link directions, a source and a sink agent, and its `Flow` and
// `FlowSpec`; a struct that grows past its pin fails the build: shrink something else or
// raise the pin with the measured cost per flow in the commit. Lower a pin when a struct
// shrinks.
const _: () = assert!(std::mem::size_of::<LinkDirection>() <= 176);
const _: () = assert!(std::mem::size_of::<crate::net::LinkCounters>() <= 88);
const _: () = assert!(std::mem::size_of::<crate::agent::tcp::TcpSource>() <= 576);
const _: () = assert!(std::mem::size_of::<crate::agent::tcp::TcpSink>() <= 152);
const _: () = assert!(std::mem::size_of::<Flow>() <= 96);
const _: () = assert!(std::mem::size_of::<crate::scenario::FlowSpec>() <= 96);
const _: () = assert!(std::mem::size_of::<crate::scenario::LinkSpec>() <= 40);

/// Checks what only the network shows (routes, queue limits against the largest packet,
/// serialization times of at least 1 ps) and computes the routes.
pub(crate) fn plan(scenario: &Scenario, limits: &Limits) -> Result<Routes, ScenarioError> {
    let mut graph = Graph::new(scenario.nodes.len());
    for (i, l) in scenario.links.iter().enumerate() {
        graph.add(l.a as usize, l.b as usize, 2 * i as u32);
        graph.add(l.b as usize, l.a as usize, 2 * i as u32 + 1);
    }

    let sizes = scenario.flows.iter().map(|f| (f.source.config.shape().smallest_packet(), f.source.config.largest_packet()));
    let (smallest, largest) = sizes.fold((u32::MAX, 0), |(lo, hi), (small, large)| (lo.min(small), hi.max(large)));
    for (i, l) in scenario.links.iter().enumerate() {
        for (reverse, queue) in [(false, &l.models.queue_ab), (true, &l.models.queue_ba)] {
            let link = QueueLink { rate_bps: l.rate_bps, delay: l.delay, largest_packet: largest };
            queue.typed.check_link(&link).map_err(|expected| scenario.queue_error(i, reverse, format!("expected {expected}")))?;
        }
        if time::transmission_time(smallest as u64, l.rate_bps) == 0 {
            return Err(scenario.link_error(
                i,
                "rate",
                format!("expected a rate at which a {smallest} B packet takes at least 1 ps to send"),
            ));
        }
    }

    for (i, e) in scenario.events.iter().enumerate() {
        if let LinkChange::Rate(rate_bps) = e.change {
            if time::transmission_time(smallest as u64, rate_bps) == 0 {
                return Err(scenario.event_error(
                    i,
                    "value",
                    format!("expected a rate at which a {smallest} B packet takes at least 1 ps to send"),
                ));
            }
        }
    }

    let (routes, flow_routes) = routes(scenario, &graph, limits)?;
    Ok(Routes { routes, flow_routes })
}

/// Routes as ns-2 picks them (see `net::routing`): one per distinct (from, to) pair the
/// flows use, in the order they first need it, and each flow's (data, ACK) route ids.
///
/// A node with a single link can only forward over it, and from there on the path is
/// the neighbour's own tree path (ns-2 forwards hop by hop with each node's table), so
/// the thousand sources of a dumbbell share the router's tree: a 1000-pair dumbbell
/// builds two trees, one from each router. The routes are computed grouped by the node
/// whose tree they follow, one tree alive at a time: routing memory is the routes plus
/// one tree (keeping a tree of n nodes per origin made a long chain cost n²). The routes'
/// 4 bytes per hop count against `limits.max_memory` as they are found.
fn routes(scenario: &Scenario, graph: &Graph, limits: &Limits) -> Result<(RouteTable, Vec<(u32, u32)>), ScenarioError> {
    // Distinct (from, to) pairs, with the first flow that needs each.
    let mut interned: HashMap<(usize, usize), u32> = HashMap::new();
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    let mut flow_routes = Vec::with_capacity(scenario.flows.len());
    for (i, f) in scenario.flows.iter().enumerate() {
        let mut id = |from: usize, to: usize| {
            *interned.entry((from, to)).or_insert_with(|| {
                pairs.push((from, to, i));
                (pairs.len() - 1) as u32
            })
        };
        flow_routes.push((id(f.from as usize, f.to as usize), id(f.to as usize, f.from as usize)));
    }
    drop(interned);

    let mut hops = 0u64;
    let mut count = |flow: usize, n: usize| -> Result<(), ScenarioError> {
        hops += n as u64;
        if hops.saturating_mul(4) > limits.max_memory {
            return Err(scenario.flow_error(
                flow,
                format!(
                    "the routes would need more than {} of memory ({hops} hops so far, 4 bytes each), more than the limit: \
                     expected fewer distinct or shorter routes, or a higher limit (--max-memory SIZE for tcpsim-run and tcpsim run)",
                    crate::cost::human_bytes(limits.max_memory)
                ),
            ));
        }
        if hops > RouteTable::MAX_HOPS {
            return Err(scenario.flow_error(
                flow,
                format!(
                    "the routes would have more than {} hops in all ({hops} so far): expected fewer distinct or shorter routes",
                    RouteTable::MAX_HOPS
                ),
            ));
        }
        Ok(())
    };
    // Single-link prefixes first; what remains follows the tree of the node reached.
    let mut routes: Vec<Vec<u32>> = Vec::with_capacity(pairs.len());
    let mut pending: Vec<(usize, u32)> = Vec::new();
    for (id, &(from, to, flow)) in pairs.iter().enumerate() {
        let mut prefix = Vec::new();
        let mut node = from;
        while node != to && graph.out[node].len() == 1 && prefix.len() <= graph.out.len() {
            let (next, link) = graph.out[node][0];
            prefix.push(link);
            node = next;
        }
        count(flow, prefix.len())?;
        routes.push(prefix);
        if node != to {
            pending.push((node, id as u32));
        }
    }
    pending.sort_unstable();
    // The first flow (in file order) without a route, if any.
    let mut unreachable: Option<(usize, u32)> = None;
    for group in pending.chunk_by(|a, b| a.0 == b.0) {
        let origin = group[0].0;
        let tree = graph.tree(origin);
        for &(_, id) in group {
            let (_, to, flow) = pairs[id as usize];
            match path(&tree, origin, to) {
                Some(rest) => {
                    count(flow, rest.len())?;
                    routes[id as usize].extend(rest);
                }
                None => unreachable = Some(unreachable.map_or((flow, id), |u| u.min((flow, id)))),
            }
        }
    }
    if let Some((flow, id)) = unreachable {
        let (from, to, _) = pairs[id as usize];
        let (a, b) = (&scenario.nodes[from], &scenario.nodes[to]);
        return Err(scenario.flow_error(flow, format!("no route from {a:?} to {b:?}: expected links connecting them")));
    }
    // Route i of the search is the one with the i-th id of the table.
    let (table, ids) = RouteTable::from_routes(&routes);
    for (data, ack) in &mut flow_routes {
        (*data, *ack) = (ids[*data as usize], ids[*ack as usize]);
    }
    Ok((table, flow_routes))
}

pub(super) fn build<'s>(scenario: &'s Scenario, output_dir: Option<&std::path::Path>) -> Result<Simulation<'s>, ScenarioError> {
    // Loading planned the routes and checked the limits (crate::load_str_with); a scenario
    // that was only parsed is planned here.
    let planned;
    let plan = match &scenario.routes {
        Some(routes) => routes.as_ref(),
        None => {
            planned = plan(scenario, &Limits::unlimited())?;
            &planned
        }
    };
    let mut links = Vec::with_capacity(scenario.links.len() * 2);
    for l in &scenario.links {
        for (from, to, queue, error) in [(l.a, l.b, &l.models.queue_ab, &l.models.error_ab), (l.b, l.a, &l.models.queue_ba, &l.models.error_ba)] {
            let name = scenario.queue_name(from as usize, to as usize);
            let random = RandomStream::new(scenario.seed, &format!("queue {name}"));
            let discipline = queue.typed.build(QueueEnv { rate_bps: l.rate_bps, delay: l.delay, random });
            let mut link = LinkDirection::new(from, to, l.rate_bps, l.delay, discipline);
            if let Some(error) = error {
                let random = RandomStream::new(scenario.seed, &format!("error {name}"));
                link.head = Some(Box::new(LinkHead { down: false, errors: Some(LinkErrors { model: error.build(), random }) }));
            }
            links.push(link);
        }
    }
    let flows: Vec<Flow> = scenario
        .flows
        .iter()
        .zip(&plan.flow_routes)
        .map(|(f, &(data, ack))| make_flow(f, RandomStream::new(scenario.seed, &format!("flow {}", f.name)), data, ack))
        .collect();

    let series = scenario.monitor.interval.map(|interval| {
        let mut s = TimeSeries::new(interval);
        for (i, f) in scenario.flows.iter().enumerate() {
            if scenario.monitor.flows.includes(&f.name) {
                let e = s.add_entity(f.name.clone());
                s.flow_entities.push((i, e));
                s.flow_delivered_previous.push(0);
            }
        }
        for (g, name) in scenario.groups.iter().enumerate() {
            if scenario.monitor.groups.includes(name) {
                let entity = s.add_entity(name.clone());
                let flows = scenario.flows.iter().enumerate().filter(|(_, f)| f.group == Some(g as u32)).map(|(i, _)| i as u32).collect();
                s.groups.push(GroupSeries { entity, flows, ..GroupSeries::default() });
            }
        }
        for (i, l) in links.iter().enumerate() {
            let name = scenario.queue_name(l.from as usize, l.to as usize);
            if scenario.monitor.queues.includes(&name) {
                let e = s.add_entity(name);
                s.queue_entities.push((i, e));
                s.queue_previous.push(Default::default());
            }
        }
        s
    });

    let tracer = super::tracing::Tracer::open(scenario, &links, &flows, output_dir)?.map(Box::new);
    Ok(Simulation {
        scenario,
        sched: Scheduler::default(),
        packets: PacketArena::default(),
        links,
        routes: plan.routes.clone(),
        route_ids: HashMap::new(),
        delay_lowered_at: HashMap::new(),
        flows,
        series,
        queue_actions: Vec::new(),
        agent_outputs: AgentOutputs::default(),
        tracer,
        measurement_start: None,
    })
}

fn make_flow(f: &crate::scenario::FlowSpec, random: RandomStream, data_route: u32, ack_route: u32) -> Flow {
    let agents = f.source.config.build(random);
    Flow {
        data_route,
        ack_route,
        shape: agents.shape,
        src_node: f.from,
        dst_node: f.to,
        source: agents.source,
        sink: agents.sink,
        drops: 0,
        received_bytes: 0,
        delivered_bytes: 0,
    }
}
