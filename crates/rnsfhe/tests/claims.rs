//! The crate's own descriptions promise only what exists (issue 11 section 6). Since HPR and BGV were
//! built (issues 13 and 14), the check that named them "planned" is gone; what remains ties the README's
//! figures to a committed run.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::path::Path;

/// The README's performance figures come from the run committed in bench/results/report: the README
/// names that run's commit and CPU model, and says which backend produced them.
#[test]
fn readme_figures_name_the_committed_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let report = std::fs::read_to_string(root.join("bench/results/report/report.md")).unwrap();
    let row = |name: &str| -> String {
        let prefix = format!("| {name} | ");
        let line = report.lines().find(|l| l.starts_with(&prefix)).unwrap();
        line[prefix.len()..].trim_end_matches(" |").to_string()
    };
    let version = row("version");
    let commit = version
        .split("git ")
        .nth(1)
        .and_then(|c| c.split(')').next())
        .unwrap();
    assert!(
        !commit.contains("dirty"),
        "the committed run was of a dirty tree: {version}"
    );
    assert!(
        readme.contains(&format!("commit {commit}")),
        "README does not name commit {commit}"
    );
    assert!(
        readme.contains(&row("CPU")),
        "README does not name the CPU {}",
        row("CPU")
    );
    let backend = row("NTT backend (selected)");
    let first = backend.split(' ').next().unwrap();
    assert!(
        readme.contains(&format!("{first} backend")),
        "README does not name backend {first}"
    );
}
