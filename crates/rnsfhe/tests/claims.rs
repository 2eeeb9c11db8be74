//! The crate's own descriptions promise only what exists (issue 11 section 6): HPR multiplication is
//! not implemented (BGV is, in `rnsfhe::bgv`), so every doc line, crate description or README line
//! naming it must say "planned".
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::path::{Path, PathBuf};

const UNBUILT: [&str; 1] = ["HPR"];

/// The lines of `text` that name an unbuilt scheme without saying it is planned.
fn promises(text: &str, doc_only: bool) -> Vec<String> {
    text.lines()
        .filter(|l| {
            !doc_only || l.trim_start().starts_with("//!") || l.trim_start().starts_with("///")
        })
        .filter(|l| UNBUILT.iter().any(|w| l.contains(w)) && !l.contains("planned"))
        .map(str::to_string)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn no_unbuilt_scheme_is_promised() {
    assert!(promises(env!("CARGO_PKG_DESCRIPTION"), false).is_empty());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for krate in ["rnsfhe", "rnsfhe-math", "rnsfhe-py", "rnsfhe-cli"] {
        rust_files(&root.join("..").join(krate).join("src"), &mut files);
    }
    let mut bad: Vec<String> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        bad.extend(
            promises(&text, true)
                .into_iter()
                .map(|l| format!("{}: {l}", f.display())),
        );
    }
    for f in [
        "../../README.md",
        "../../pyproject.toml",
        "../../python/rnsfhe/__init__.py",
    ] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        bad.extend(
            promises(&text, false)
                .into_iter()
                .map(|l| format!("{f}: {l}")),
        );
    }
    for f in [
        "../rnsfhe-math/Cargo.toml",
        "../rnsfhe-py/Cargo.toml",
        "../rnsfhe-cli/Cargo.toml",
    ] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        bad.extend(
            promises(&text, false)
                .into_iter()
                .map(|l| format!("{f}: {l}")),
        );
    }
    assert!(
        bad.is_empty(),
        "promises of unbuilt schemes:\n{}",
        bad.join("\n")
    );
}

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
