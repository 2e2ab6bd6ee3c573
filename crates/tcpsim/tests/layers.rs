//! The house stays one-way: no module of the core imports one that imports it back
//! (directly or through others), and no module imports a higher layer.
//!
//! The layers, lowest first (docs/architecture.md, "Layers"):
//!
//! 1. foundation: `engine` (clock, events, packets, random streams), `units`, `words`,
//!    `results`
//! 2. `model`: the vocabulary every model speaks (spec, parameters, relations, configs)
//! 3. the model families and their models: `tcp`, `queue`, `net`, `monitor`
//! 4. traffic sources, which combine the TCP models into flows: `agent`
//! 5. `catalogue`: the one list of every model
//! 6. `scenario`: reading and checking scenario files
//! 7. `cost`, then 8. `sim`: what a run costs, building and running it
//! 9. the crate root (`lib.rs`)
//!
//! Dependencies are read from the sources: every `use` and every path written out
//! (`crate::a::b`, `super::x`, a child module, an imported module's name), resolved to the
//! module that defines the item, through re-exports. A module re-exporting its own
//! children (`pub use child::Item`, a facade) does not depend on them by that; any other
//! re-export is an import. Test code (`#[cfg(test)]` items and `tests.rs` files) is left
//! out: tests may use the catalogue to build what they test.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The layers, lowest first: each a list of module-path prefixes ("" is the crate root).
const LAYERS: &[(&str, &[&str])] = &[
    ("foundation", &["engine", "units", "words", "results"]),
    ("model vocabulary", &["model"]),
    ("model families", &["tcp", "queue", "net", "monitor"]),
    ("traffic sources", &["agent"]),
    ("catalogue", &["catalogue"]),
    ("scenario", &["scenario"]),
    ("cost", &["cost"]),
    ("simulation", &["sim"]),
    ("crate root", &[""]),
];

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

/// Every module file under `src` (the binaries left out), by module path.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable source directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(src).expect("under src").with_extension("");
        let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if parts[0] == "bin" {
            continue;
        }
        if parts == ["lib"] {
            parts.clear();
        } else if parts.last().is_some_and(|p| p == "mod") {
            parts.pop();
        }
        out.insert(parts, f);
    }
    out
}

/// The text with comments, string and character literals blanked and test-only items
/// (`#[cfg(test)]` modules, functions and imports) removed.
fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !chars.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_') {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (chars.get(i + 2) == Some(&'\'') || (next == Some('\\') && chars[i + 1..].iter().take(12).any(|&x| x == '\''))) {
            // A character literal ('x', '\n', '\u{2028}'); lifetimes ('a) are left alone.
            i += 1;
            if chars[i] == '\\' {
                i += 1;
            }
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    strip_test_items(&out)
}

/// Removes each `#[cfg(test)]` item: a block item up to its closing brace, or a
/// declaration up to its semicolon.
fn strip_test_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let brace = item.find('{');
        let semi = item.find(';');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0;
                let mut end = item.len();
                for (k, ch) in item[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The paths of a use tree: "crate::a::{b, c::{d, e as f}}" → crate::a::b, crate::a::c::d,
/// crate::a::c::e (aliases dropped).
fn expand_use(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    fn rec(prefix: &str, s: &str, out: &mut Vec<String>) {
        let mut depth = 0;
        let mut start = 0;
        let bytes = s.as_bytes();
        let mut parts = Vec::new();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        for p in parts.into_iter().filter(|p| !p.is_empty()) {
            match p.find('{') {
                Some(i) => rec(&format!("{prefix}{}", &p[..i]), &p[i + 1..p.len() - 1], out),
                None => out.push(format!("{prefix}{}", p.split("as").next().unwrap_or(p))),
            }
        }
    }
    rec("", &tree, &mut out);
    // "asX" splits wrongly for names containing "as"; keep only the text before " as ".
    out.into_iter().map(|p| p.trim_end_matches(':').to_string()).collect()
}

struct Crate {
    files: BTreeMap<Module, PathBuf>,
    code: BTreeMap<Module, String>,
    /// (module, name) → (module, name) it re-exports.
    reexports: HashMap<(Module, String), (Module, String)>,
    /// Modules declared private (`mod x;`), each part of its parent.
    private: BTreeSet<Module>,
}

/// A `use` item: its visibility (`pub` of any kind) and tree.
fn use_items(code: &str) -> Vec<(bool, String, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(at) = code[i..].find("use ") {
        let start = i + at;
        i = start + 4;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let Some(end) = code[start..].find(';').map(|e| start + e) else { break };
        let before = code[..start].trim_end();
        let public = before.ends_with("pub") || before.ends_with(')') && before.rsplit("pub").next().is_some_and(|v| v.starts_with('('));
        let item_start = if public { before.rfind("pub").unwrap_or(start) } else { start };
        out.push((public, code[start + 4..end].to_string(), item_start..end + 1));
        i = end + 1;
    }
    out
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let files = modules(src);
        let mut code = BTreeMap::new();
        for (m, f) in &files {
            let text = std::fs::read_to_string(f).expect("readable source");
            // A tests.rs file is a test module.
            let test_file = m.last().is_some_and(|p| p == "tests");
            code.insert(m.clone(), if test_file { String::new() } else { code_of(&text) });
        }
        let mut private = BTreeSet::new();
        for (m, text) in &code {
            for (i, _) in text.match_indices("mod ") {
                let before = text[..i].trim_end();
                let word_start = i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric() && text.as_bytes()[i - 1] != b'_';
                let rest = &text[i + 4..];
                let ident: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let declared = rest[ident.len()..].trim_start().starts_with(';');
                if word_start && declared && !ident.is_empty() && !(before.ends_with("pub") || before.ends_with(')')) {
                    let mut child = m.clone();
                    child.push(ident);
                    private.insert(child);
                }
            }
        }
        let mut c = Crate { files, code, reexports: HashMap::new(), private };
        let mut reexports = HashMap::new();
        for (m, text) in &c.code {
            for (public, tree, _) in use_items(text) {
                if !public {
                    continue;
                }
                for path in expand_use(&tree) {
                    let segs: Vec<&str> = path.split("::").collect();
                    let Some((last, init)) = segs.split_last() else { continue };
                    if let Some(target) = c.module_of(m, init, &HashMap::new()) {
                        if target.0 == *m && target.1 == init.len() {
                            continue;
                        }
                        if target.1 == init.len() && &target.0 != m {
                            reexports.insert((m.clone(), last.to_string()), (target.0, last.to_string()));
                        }
                    }
                }
            }
        }
        c.reexports = reexports;
        c
    }

    /// The module a path's leading segments name, and how many segments that took;
    /// `None` for paths outside the crate (std, other crates, local names).
    fn module_of(&self, cur: &Module, segs: &[&str], aliases: &HashMap<String, Module>) -> Option<(Module, usize)> {
        let first = *segs.first()?;
        let (mut m, mut i) = match first {
            "crate" => (Vec::new(), 1),
            "self" => (cur.clone(), 1),
            "super" => {
                let mut m = cur.clone();
                let mut i = 0;
                while segs.get(i) == Some(&"super") {
                    m.pop();
                    i += 1;
                }
                (m, i)
            }
            _ => {
                let mut child = cur.clone();
                child.push(first.to_string());
                if self.files.contains_key(&child) {
                    (cur.clone(), 0)
                } else if let Some(m) = aliases.get(first) {
                    (m.clone(), 1)
                } else {
                    return None;
                }
            }
        };
        while let Some(s) = segs.get(i) {
            let mut next = m.clone();
            next.push(s.to_string());
            if self.files.contains_key(&next) {
                m = next;
                i += 1;
            } else {
                break;
            }
        }
        Some((m, i))
    }

    /// The module that defines what `path` names, seen from `cur`.
    fn resolve(&self, cur: &Module, path: &str, aliases: &HashMap<String, Module>) -> Option<Module> {
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let (mut m, used) = self.module_of(cur, &segs, aliases)?;
        if let Some(item) = segs.get(used) {
            let mut key = (m.clone(), item.to_string());
            for _ in 0..16 {
                match self.reexports.get(&key) {
                    Some(next) => key = next.clone(),
                    None => break,
                }
            }
            m = key.0;
        }
        Some(m)
    }

    /// What each module depends on.
    fn graph(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut graph = BTreeMap::new();
        for (m, text) in &self.code {
            let mut deps = BTreeSet::new();
            let mut aliases = HashMap::new();
            let mut rest = text.clone();
            for (public, tree, range) in use_items(text) {
                for path in expand_use(&tree) {
                    let segs: Vec<&str> = path.split("::").collect();
                    let whole = self.module_of(m, &segs, &HashMap::new());
                    if let Some((target, used)) = &whole {
                        let names_self = segs.last() == Some(&"self") && *used == segs.len() - 1;
                        if *used == segs.len() || names_self {
                            // The import names a module: its name can start paths below,
                            // which say what is used of it.
                            let alias = if names_self { segs[segs.len() - 2] } else { segs[segs.len() - 1] };
                            aliases.insert(alias.to_string(), target.clone());
                            continue;
                        }
                    }
                    let Some(target) = self.resolve(m, &path, &HashMap::new()) else { continue };
                    // A facade re-exporting its own descendants does not depend on them.
                    if public && target.len() > m.len() && target.starts_with(m) {
                        continue;
                    }
                    deps.insert(target);
                }
                rest.replace_range(range.clone(), &" ".repeat(range.len()));
            }
            // Paths written out in the code.
            let bytes = rest.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                let c = bytes[i];
                let starts = (c.is_ascii_alphabetic() || c == b'_') && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':'));
                if !starts {
                    i += 1;
                    continue;
                }
                let mut j = i;
                while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || (bytes[j] == b':' && bytes.get(j + 1) == Some(&b':')) || (bytes[j] == b':' && j > 0 && bytes[j - 1] == b':')) {
                    j += 1;
                }
                let path = rest[i..j].trim_end_matches(':');
                if path.contains("::") {
                    if let Some(target) = self.resolve(m, path, &aliases) {
                        deps.insert(target);
                    }
                }
                i = j.max(i + 1);
            }
            graph.insert(m.clone(), deps);
        }
        // A private child module (`mod x;`) is part of its parent: the two are one room.
        let room = |m: &Module| -> Module {
            let mut m = m.clone();
            while self.private.contains(&m) {
                m.pop();
            }
            m
        };
        let mut rooms: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (m, deps) in graph {
            let r = room(&m);
            let entry = rooms.entry(r.clone()).or_default();
            entry.extend(deps.iter().map(room).filter(|d| *d != r));
        }
        rooms
    }
}

/// Strongly connected components with more than one module (Tarjan).
fn loops(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct T<'g> {
        g: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: HashMap<&'g Module, usize>,
        low: HashMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        on: BTreeSet<&'g Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'g> T<'g> {
        fn visit(&mut self, v: &'g Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                if !self.g.contains_key(w) {
                    continue;
                }
                let w = self.g.get_key_value(w).expect("present").0;
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v, l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut t = T { g: graph, index: HashMap::new(), low: HashMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

fn layer_of(m: &Module) -> Option<usize> {
    let text = name(m);
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, prefixes)) in LAYERS.iter().enumerate() {
        for p in *prefixes {
            let matches = if p.is_empty() { m.is_empty() } else { text == *p || text.starts_with(&format!("{p}::")) };
            if matches && best.is_none_or(|(len, _)| p.len() > len) {
                best = Some((p.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

fn core() -> Crate {
    Crate::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let graph = core().graph();
    let found = loops(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|component| {
            let edges: Vec<String> = component
                .iter()
                .flat_map(|a| graph[a].iter().filter(|b| component.contains(b)).map(move |b| format!("{} -> {}", name(a), name(b))))
                .collect();
            format!("{}", edges.join(", "))
        })
        .collect();
    assert!(found.is_empty(), "modules that import each other (directly or through others):\n  {}", described.join("\n  "));
}

#[test]
fn no_module_imports_a_higher_layer() {
    let graph = core().graph();
    let mut wrong = Vec::new();
    for (m, deps) in &graph {
        let Some(own) = layer_of(m) else {
            wrong.push(format!("{} is in no layer: add it to LAYERS in tests/layers.rs and to docs/architecture.md", name(m)));
            continue;
        };
        for d in deps {
            if let Some(theirs) = layer_of(d) {
                if theirs > own {
                    wrong.push(format!("{} ({}) imports {} ({})", name(m), LAYERS[own].0, name(d), LAYERS[theirs].0));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layers:\n  {}", wrong.join("\n  "));
}

/// The checker itself: it sees a loop and an upward import when there is one.
#[test]
fn the_checker_finds_loops_through_uses_paths_and_reexports() {
    let dir = std::env::temp_dir().join(format!("tcpsim-layers-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("queue")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod queue; pub mod catalogue; pub mod engine; pub mod sim;").unwrap();
    // A private child (`mod build;`) is part of its parent: they may use each other.
    std::fs::create_dir_all(src.join("sim")).unwrap();
    std::fs::write(src.join("sim/mod.rs"), "mod build;\npub struct Simulation;\npub fn new() -> Simulation { build::build() }").unwrap();
    std::fs::write(src.join("sim/build.rs"), "use super::Simulation;\npub fn build() -> Simulation { Simulation }").unwrap();
    std::fs::write(src.join("engine.rs"), "// crate::catalogue::X in a comment\nconst S: &str = \"crate::catalogue::Y\"; pub struct Dur;").unwrap();
    // A facade: its re-export of a child is no import, but the child's import of the
    // facade's trait is.
    std::fs::write(src.join("queue/mod.rs"), "pub mod red;\npub use red::Red;\npub trait Queue {}\n#[cfg(test)]\nmod tests { use crate::catalogue::ALL; }").unwrap();
    std::fs::write(src.join("queue/red.rs"), "use super::Queue;\npub struct Red;\nfn f() -> crate::engine::Dur { crate::engine::Dur }").unwrap();
    std::fs::write(src.join("catalogue.rs"), "use crate::queue::{self, Red};\npub static ALL: &[&str] = &[];\nfn g(_: queue::red::Red) {}").unwrap();
    let c = Crate::load(&src);
    let g = c.graph();
    let m = |s: &str| -> Module { if s.is_empty() { Vec::new() } else { s.split("::").map(String::from).collect() } };
    assert_eq!(g[&m("queue")], BTreeSet::new(), "re-export of a child and test code are no imports");
    assert_eq!(g[&m("queue::red")], [m("engine"), m("queue")].into_iter().collect());
    assert_eq!(g[&m("engine")], BTreeSet::new(), "comments and strings are no imports");
    assert_eq!(g[&m("catalogue")], [m("queue::red")].into_iter().collect(), "through the re-export and the module alias");
    assert!(!g.contains_key(&m("sim::build")) && g[&m("sim")].is_empty(), "a private child is part of its parent");
    assert!(loops(&g).is_empty());
    // Now the trait module imports the catalogue: a loop queue -> catalogue -> queue::red -> queue.
    std::fs::write(src.join("queue/mod.rs"), "pub mod red;\npub use red::Red;\npub trait Queue {}\nfn all() -> usize { crate::catalogue::ALL.len() }").unwrap();
    let g = Crate::load(&src).graph();
    assert_eq!(loops(&g), vec![vec![m("catalogue"), m("queue"), m("queue::red")]]);
    std::fs::remove_dir_all(&dir).ok();
}
