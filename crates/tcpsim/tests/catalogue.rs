//! Every model written is listed: each `pub static SPEC: ModelSpec` in the sources (the
//! spec a model file declares) is in the catalogue (`tcpsim::catalogue`), so that
//! `tcpsim models`, the scenario reader and the docs know it. (That each listed model has
//! its docs page is `tests/test_docs_registry.py`'s check.)

use std::path::{Path, PathBuf};
use tcpsim::catalogue;
use tcpsim::model::Family;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The (family, name) of each spec declared in `text`: the `family:` and `name:` fields
/// after each `pub static SPEC: ModelSpec`.
fn declared_specs(text: &str) -> Vec<(String, String)> {
    let field = |rest: &str, key: &str| -> Option<String> {
        let at = rest.find(key)? + key.len();
        let value: String = rest[at..].trim_start().chars().take_while(|c| !matches!(c, ',' | '\n')).collect();
        Some(value.trim().trim_matches('"').to_string())
    };
    text.match_indices("pub static SPEC: ModelSpec")
        .filter_map(|(at, _)| {
            let rest = &text[at..];
            Some((field(rest, "family:")?, field(rest, "name:")?))
        })
        .collect()
}

#[test]
fn every_model_spec_in_the_sources_is_in_the_catalogue() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut declared = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        for spec in declared_specs(&text) {
            declared.push((f.strip_prefix(&src).expect("under src").display().to_string(), spec));
        }
    }
    assert!(declared.len() >= 19, "the scan finds the specs: {declared:?}");
    let family = |text: &str| Family::ALL.into_iter().find(|f| format!("Family::{f:?}") == text);
    let missing: Vec<String> = declared
        .iter()
        .filter(|(_, (fam, name))| family(fam).is_none_or(|f| catalogue::find(f, name).is_none()))
        .map(|(file, (fam, name))| format!("{file}: {fam} \"{name}\""))
        .collect();
    assert!(missing.is_empty(), "models declared but not listed in crates/tcpsim/src/catalogue.rs: {missing:?}");
    assert_eq!(declared.len(), catalogue::specs().count(), "every listed model is declared once in the sources");
}

#[test]
fn the_scan_reads_family_and_name() {
    let text = "pub static SPEC: ModelSpec = ModelSpec {\n    family: Family::Queue,\n    name: \"codel\",\n";
    assert_eq!(declared_specs(text), vec![("Family::Queue".to_string(), "codel".to_string())]);
}
