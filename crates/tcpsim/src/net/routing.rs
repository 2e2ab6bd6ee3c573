//! Static shortest-path routing by hop count (ns-2 `rtproto Static` with unit costs).
//!
//! Breadth-first search from the source over link directions in declaration order, so
//! ties break the same way on every run.

use std::collections::VecDeque;

/// For every node, the link directions leaving it: (neighbour, link direction index).
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

    /// Shortest-path tree from `source`: for each node, the link direction that reaches it.
    pub fn tree(&self, source: usize) -> Vec<Option<(usize, u32)>> {
        let mut parent: Vec<Option<(usize, u32)>> = vec![None; self.out.len()];
        let mut seen = vec![false; self.out.len()];
        let mut queue = VecDeque::from([source]);
        seen[source] = true;
        while let Some(node) = queue.pop_front() {
            for &(next, link) in &self.out[node] {
                if !seen[next] {
                    seen[next] = true;
                    parent[next] = Some((node, link));
                    queue.push_back(next);
                }
            }
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
    fn finds_fewest_hops_and_reports_unreachable() {
        // 0 - 1 - 2 - 3 and a shortcut 0 - 3; node 4 isolated.
        let mut g = Graph::new(5);
        let edges = [(0, 1), (1, 2), (2, 3), (0, 3)];
        for (i, &(a, b)) in edges.iter().enumerate() {
            g.add(a, b, 2 * i as u32);
            g.add(b, a, 2 * i as u32 + 1);
        }
        let t = g.tree(0);
        assert_eq!(path(&t, 0, 3), Some(vec![6]));
        assert_eq!(path(&t, 0, 2), Some(vec![0, 2]));
        assert_eq!(path(&t, 0, 4), None);
    }
}
