//! The repository's Futhark programs, shared by the tests that run over
//! all of them.

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Appends the `.fut` files under `dir` (at any depth, sorted) to `out`;
/// a missing folder adds nothing.
pub fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fut_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "fut") {
            out.push(p);
        }
    }
}
