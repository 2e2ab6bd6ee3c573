//! Static shortest-path routing by hop count, with ns-2.35's tie-breaking.
//!
//! ns-2's `rtproto Static` (route.cc `RouteLogic::compute_routes`) runs, for every source
//! k, a Dijkstra over unit link costs that picks the next node to settle as the lowest
//! node id among those at the smallest distance, and relaxes only on a strictly shorter
//! distance. With unit costs nodes are therefore settled in (distance, id) order, and a
//! node's route is inherited from the first settled neighbour one hop closer: its
//! **parent is its lowest-id predecessor** (lowest id among the neighbours one hop closer
//! to k). Packets are forwarded hop by hop with each node's own table, but those tables
//! agree with the source's tree: a node `a` on k's tree path to `w` sees the same
//! predecessors along that path (any predecessor of `x` seen from `a` is one seen from k,
//! and k's choice is among them), so following k's tree gives the hop-by-hop path.
//!
//! Data and ACKs are routed each from their own origin, so they take the same path only
//! when the two trees agree, e.g. when equal paths differ in one node (the lower id wins
//! both ways); over `s–a–c–d` and `s–b–e–d` with ids s < a < b < e < c < d, ns-2 sends
//! data `s→d` through b, e (e < c) and ACKs `d→s` through c, a (a < b).

/// The routes of a scenario, as the simulation's plan computes them: link directions of
/// each distinct route (direction `2i` is link i's a → b, `2i + 1` its b → a), and each
/// flow's (data, ACK) route.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Routes {
    pub routes: RouteTable,
    pub flow_routes: Vec<(u32, u32)>,
}

impl Routes {
    /// Hops of all routes together.
    pub fn hops(&self) -> u64 {
        self.routes.hops()
    }
}

/// Routes by id, each a list of link directions, all in one vector: a route costs its
/// hops and a length (4 bytes each), where a `Vec` per route cost 24 bytes and a heap
/// block of at least 32 (a million dumbbell flows have two million routes; issue 22).
///
/// A route's id is where its length is in `words`, its hops follow: finding hop `i` of
/// route `id` reads `words[id]` and `words[id + 1 + i]`, as many loads and checks as a
/// `Vec` of `Vec`s (a table of where each route starts would cost one more load and
/// check per hop on the packets' path, 2.8 % of B1's instructions).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RouteTable {
    /// Each route's length, then its link directions.
    words: Vec<u32>,
    /// Number of routes.
    count: u32,
}

impl RouteTable {
    /// The most hops all routes together can have: ids are `u32` positions in `words`,
    /// where each route takes a length word besides its hops, so half the range leaves
    /// room for a route of at least one hop per hop.
    pub const MAX_HOPS: u64 = (u32::MAX / 2) as u64;

    /// The table of these routes, in their order; the ids, in the same order.
    pub fn from_routes(routes: &[Vec<u32>]) -> (Self, Vec<u32>) {
        let words: usize = routes.iter().map(|r| r.len() + 1).sum();
        let mut table = RouteTable { words: Vec::with_capacity(words), count: 0 };
        let ids = routes.iter().map(|r| table.push(r)).collect();
        (table, ids)
    }

    /// Adds a route and returns its id. Panics when the ids no longer fit in `u32` (the
    /// plan refuses scenarios above `MAX_HOPS` first).
    pub fn push(&mut self, hops: &[u32]) -> u32 {
        let id = u32::try_from(self.words.len()).ok().filter(|&id| id.checked_add(hops.len() as u32 + 1).is_some());
        let id = id.expect("the plan keeps routes below RouteTable::MAX_HOPS hops");
        self.words.push(hops.len() as u32);
        self.words.extend_from_slice(hops);
        self.count += 1;
        id
    }

    /// Hop `i` of route `id` (a link direction), or `None` past its end: the packets'
    /// path, which reads the length and the hop and nothing else (no slice to build).
    #[inline(always)]
    pub fn hop(&self, id: u32, i: usize) -> Option<u32> {
        let id = id as usize;
        if i < self.words[id] as usize {
            Some(self.words[id + 1 + i])
        } else {
            None
        }
    }

    /// The first hop of route `id`, which must have one (a flow's routes do: loading
    /// refuses a flow whose source is its destination); one load, no length to read.
    #[inline(always)]
    pub fn first_hop(&self, id: u32) -> u32 {
        debug_assert!(self.words[id as usize] > 0, "route {id} has no hop");
        self.words[id as usize + 1]
    }

    /// Route `id`'s link directions, in order.
    #[inline]
    pub fn get(&self, id: u32) -> &[u32] {
        let start = id as usize + 1;
        &self.words[start..start + self.words[id as usize] as usize]
    }

    /// Number of routes.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Hops of all routes together.
    pub fn hops(&self) -> u64 {
        (self.words.len() - self.len()) as u64
    }

    /// Each route's id and link directions, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        let mut at = 0usize;
        std::iter::from_fn(move || {
            let id = at as u32;
            let route = self.words.get(at).map(|_| self.get(id))?;
            at += 1 + route.len();
            Some((id, route))
        })
    }
}

/// For every node, the link directions leaving it: (neighbour, link direction index).
/// At most one link joins two nodes.
pub struct Graph {
    pub out: Vec<Vec<(usize, u32)>>,
}

impl Graph {
    pub fn new(nodes: usize) -> Self {
        Graph { out: vec![Vec::new(); nodes] }
    }

    pub fn add(&mut self, from: usize, to: usize, link: u32) {
        self.out[from].push((to, link));
    }

    /// Shortest-path tree from `source`: for each node, its parent and the link direction
    /// from it. The parent is the lowest-id neighbour one hop closer to `source` (ns-2).
    pub fn tree(&self, source: usize) -> Vec<Option<(usize, u32)>> {
        let mut parent: Vec<Option<(usize, u32)>> = vec![None; self.out.len()];
        let mut seen = vec![false; self.out.len()];
        seen[source] = true;
        // Breadth-first, one distance at a time, each level in ascending node id: the
        // first node of a level to reach a new node is its lowest-id predecessor.
        let mut level = vec![source];
        let mut next = Vec::new();
        while !level.is_empty() {
            for &node in &level {
                for &(to, link) in &self.out[node] {
                    if !seen[to] {
                        seen[to] = true;
                        parent[to] = Some((node, link));
                        next.push(to);
                    }
                }
            }
            next.sort_unstable();
            level.clear();
            std::mem::swap(&mut level, &mut next);
        }
        parent
    }
}

/// The link directions from the tree's source to `dest`, or `None` if unreachable.
pub fn path(tree: &[Option<(usize, u32)>], source: usize, dest: usize) -> Option<Vec<u32>> {
    let mut hops = Vec::new();
    let mut node = dest;
    while node != source {
        let (prev, link) = tree[node]?;
        hops.push(link);
        node = prev;
    }
    hops.reverse();
    Some(hops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_table_gives_back_each_route_by_its_id() {
        let (mut table, ids) = RouteTable::from_routes(&[vec![4, 2, 7], vec![], vec![1]]);
        assert_eq!(ids, vec![0, 4, 5], "an id is where the route's length is: after the routes before it and their lengths");
        assert_eq!((table.len(), table.hops()), (3, 4));
        assert_eq!(table.get(0), &[4, 2, 7]);
        assert!(table.get(4).is_empty());
        assert_eq!(table.get(5), &[1]);
        assert_eq!(table.push(&[9, 9]), 7);
        assert_eq!(table.get(7), &[9, 9]);
        assert_eq!((table.hop(0, 0), table.hop(0, 2), table.hop(0, 3)), (Some(4), Some(7), None));
        assert_eq!((table.hop(4, 0), table.hop(5, 0), table.hop(5, 1)), (None, Some(1), None));
        assert_eq!((table.first_hop(0), table.first_hop(5), table.first_hop(7)), (4, 1, 9));
        let all: Vec<(u32, Vec<u32>)> = table.iter().map(|(id, r)| (id, r.to_vec())).collect();
        assert_eq!(all, vec![(0, vec![4, 2, 7]), (4, vec![]), (5, vec![1]), (7, vec![9, 9])]);
        assert!(RouteTable::default().is_empty());
    }

    /// A graph of duplex links: link i gives directions 2i (a→b) and 2i + 1 (b→a).
    fn graph(nodes: usize, links: &[(usize, usize)]) -> Graph {
        let mut g = Graph::new(nodes);
        for (i, &(a, b)) in links.iter().enumerate() {
            g.add(a, b, 2 * i as u32);
            g.add(b, a, 2 * i as u32 + 1);
        }
        g
    }

    /// The nodes a route visits, from `from` to `to`.
    fn nodes(g: &Graph, from: usize, to: usize) -> Vec<usize> {
        let hops = path(&g.tree(from), from, to).expect("reachable");
        let mut at = vec![from];
        for link in hops {
            let prev = *at.last().unwrap();
            let &(next, _) = g.out[prev].iter().find(|&&(_, l)| l == link).expect("link leaves the node");
            at.push(next);
        }
        at
    }

    #[test]
    fn finds_fewest_hops_and_reports_unreachable() {
        // 0 - 1 - 2 - 3 and a shortcut 0 - 3; node 4 isolated.
        let g = graph(5, &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        let t = g.tree(0);
        assert_eq!(path(&t, 0, 3), Some(vec![6]));
        assert_eq!(path(&t, 0, 2), Some(vec![0, 2]));
        assert_eq!(path(&t, 0, 4), None);
    }

    #[test]
    fn two_equal_paths_take_the_lower_node_id_both_ways() {
        // s=0, d=1, r1=2, r2=3, p=4, q=5: r1 and r2 are joined through p and through q.
        // The links through q come first in each router's list (the order that made the
        // old declaration-order rule send data through q and ACKs through p); ns-2
        // (route.cc) takes p, the lower id, in both directions.
        let g = graph(6, &[(0, 2), (3, 1), (2, 5), (4, 3), (2, 4), (5, 3)]);
        assert_eq!(nodes(&g, 0, 1), vec![0, 2, 4, 3, 1]);
        assert_eq!(nodes(&g, 1, 0), vec![1, 3, 4, 2, 0]);
    }

    #[test]
    fn each_direction_takes_its_lowest_id_predecessors() {
        // s=0, a=1, b=2, e=3, c=4, d=5 with paths s-a-c-d and s-b-e-d, links declared
        // out of id order. Checked with ns-2.35 (RouteLogic lookup): s→d goes 0 2 3 5,
        // d→s goes 5 4 1 0, a→e goes 1 0 2 3, e→a goes 3 2 0 1.
        let g = graph(6, &[(2, 3), (0, 2), (4, 5), (1, 4), (3, 5), (0, 1)]);
        assert_eq!(nodes(&g, 0, 5), vec![0, 2, 3, 5]);
        assert_eq!(nodes(&g, 5, 0), vec![5, 4, 1, 0]);
        assert_eq!(nodes(&g, 1, 3), vec![1, 0, 2, 3]);
        assert_eq!(nodes(&g, 3, 1), vec![3, 2, 0, 1]);
    }

    #[test]
    fn hop_by_hop_tables_follow_the_source_tree() {
        // ns-2 forwards with each node's own table; the source's tree path must be what
        // those tables give. Every pair of a 4 x 4 grid (many equal paths) is checked.
        let id = |r: usize, c: usize| 4 * r + c;
        let mut links = Vec::new();
        for r in 0..4 {
            for c in 0..4 {
                if c < 3 {
                    links.push((id(r, c + 1), id(r, c)));
                }
                if r < 3 {
                    links.push((id(r + 1, c), id(r, c)));
                }
            }
        }
        let g = graph(16, &links);
        for from in 0..16 {
            for to in 0..16 {
                let route = nodes(&g, from, to);
                for (k, &at) in route.iter().enumerate() {
                    assert_eq!(nodes(&g, at, to)[..], route[k..], "{from}→{to} seen from {at}");
                }
            }
        }
    }
}
