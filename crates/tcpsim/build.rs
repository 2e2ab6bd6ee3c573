//! Fingerprints the simulator's sources: `TCPSIM_SOURCE_HASH` (16 hex digits of FNV-1a 64
//! over every file under src/, in path order, names and contents). Results caches key
//! their runs with it (`tcpsim.sweep.run_id`), so a run computed by other simulator code
//! is never reused as if it came from this build, even when the version number is the same.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let src = Path::new("src");
    println!("cargo:rerun-if-changed=src");
    let mut paths = Vec::new();
    files(src, &mut paths);
    paths.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for path in &paths {
        feed(path.to_string_lossy().replace('\\', "/").as_bytes());
        feed(&[0]);
        feed(&fs::read(path).unwrap_or_default());
        feed(&[0]);
    }
    println!("cargo:rustc-env=TCPSIM_SOURCE_HASH={hash:016x}");
}
