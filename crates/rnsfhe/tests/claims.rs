//! The project's own descriptions promise only what exists: the performance page's figures name a
//! committed run, every Rust path the documents cite resolves, the module tables match the tree, and
//! the README's Rust quickstart is the one a test compiles and runs.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use std::path::Path;

/// The performance page's figures of `rnsfhe bench all` come from the run committed in
/// bench/results/report/: the page names that run's commit and CPU model, and says which backend
/// produced them.
#[test]
fn performance_page_names_the_committed_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let page = std::fs::read_to_string(root.join("docs/performance.md")).unwrap();
    let report =
        std::fs::read_to_string(root.join("bench/results/report/amd-epyc-zen3/report.md")).unwrap();
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
        page.contains(&format!("commit {commit}")),
        "docs/performance.md does not name commit {commit}"
    );
    assert!(
        page.contains(&row("CPU")),
        "docs/performance.md does not name the CPU {}",
        row("CPU")
    );
    let backend = row("NTT backend (selected)");
    let first = backend.split(' ').next().unwrap();
    assert!(
        page.contains(&format!("{first} backend")),
        "docs/performance.md does not name backend {first}"
    );
}

/// The repository root.
fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text of the documents that cite Rust paths: README.md, examples/README.md, the example
/// programs (their doc comments are not compiled) and the documentation's pages, with each one's name.
fn documents() -> Vec<(String, String)> {
    let root = root();
    let mut names = vec!["README.md".to_string(), "examples/README.md".to_string()];
    names.extend(markdown_under(&root, "docs"));
    let mut programs: Vec<String> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .map(|n| format!("examples/{n}"))
        .collect();
    programs.sort();
    names.extend(programs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The Markdown files under `dir` (relative to `root`), sorted, as paths relative to `root`.
fn markdown_under(root: &Path, dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(root.join(dir)).unwrap() {
        let name = format!("{dir}/{}", e.unwrap().file_name().to_string_lossy());
        if root.join(&name).is_dir() {
            out.extend(markdown_under(root, &name));
        } else if name.ends_with(".md") {
            out.push(name);
        }
    }
    out.sort();
    out
}

/// Every `rnsfhe::a::b` / `rnsfhe_math::a::b` path in `text`, as its segments (crate first).
fn cited_paths(text: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for krate in ["rnsfhe::", "rnsfhe_math::"] {
        for (at, _) in text.match_indices(krate) {
            // A whole word: not the tail of `my_rnsfhe::`.
            if text[..at].chars().next_back().is_some_and(ident) {
                continue;
            }
            let mut segments = vec![krate.trim_end_matches("::").to_string()];
            let mut rest = &text[at + krate.len()..];
            loop {
                let len = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
                if len == 0 {
                    break;
                }
                segments.push(rest[..len].to_string());
                match rest[len..].strip_prefix("::") {
                    Some(r) => rest = r,
                    None => break,
                }
            }
            if segments.len() > 1 {
                out.push(segments);
            }
        }
    }
    out
}

/// Whether module source `src` declares a public item (or re-export) named `name`.
fn declares(src: &str, name: &str) -> bool {
    let word = |s: &str| {
        s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name)
    };
    let items = [
        "fn ", "struct ", "enum ", "trait ", "type ", "const ", "static ", "mod ",
    ];
    let declared = |l: &str| {
        let Some(r) = l.trim_start().strip_prefix("pub ") else {
            return false;
        };
        items.iter().any(|k| {
            r.strip_prefix(k).is_some_and(|r| {
                let end = r
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(r.len());
                &r[..end] == name
            })
        })
    };
    if src.lines().any(declared) {
        return true;
    }
    // `pub use a::{b, c};` over one or more lines.
    src.split("pub use ")
        .skip(1)
        .any(|u| u.split(';').next().is_some_and(word))
}

/// Resolves a cited path against the source tree: each module segment must be a `pub mod` with its
/// file, the first other segment a public item of the module reached, and any segment after it
/// (a method or an associated item) a `pub fn` / `pub const` somewhere in that crate. An error names
/// the first segment that does not resolve.
fn resolve(path: &[String]) -> Result<(), String> {
    let krate = match path[0].as_str() {
        "rnsfhe" => "rnsfhe",
        _ => "rnsfhe-math",
    };
    let mut dir = root().join("crates").join(krate).join("src");
    let mut file = dir.join("lib.rs");
    for (i, seg) in path.iter().enumerate().skip(1) {
        let src = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let as_file = dir.join(format!("{seg}.rs"));
        let as_dir = dir.join(seg).join("mod.rs");
        let module = if as_file.exists() {
            Some(as_file)
        } else if as_dir.exists() {
            Some(as_dir)
        } else {
            None
        };
        match module {
            Some(m) if src.contains(&format!("pub mod {seg};")) => {
                dir = dir.join(seg);
                file = m;
            }
            _ if declares(&src, seg) => {
                // An item; what follows it are its associated items.
                for assoc in &path[i + 1..] {
                    let found = crate_sources(&root().join("crates").join(krate).join("src"))
                        .iter()
                        .any(|s| {
                            s.contains(&format!("pub fn {assoc}("))
                                || s.contains(&format!("pub fn {assoc}<"))
                                || s.contains(&format!("pub const {assoc}:"))
                        });
                    if !found {
                        return Err(format!("no public associated item `{assoc}`"));
                    }
                }
                return Ok(());
            }
            _ => {
                return Err(format!(
                    "`{seg}` is neither a public module nor a public item of {}",
                    file.display()
                ))
            }
        }
    }
    Ok(())
}

/// The text of every .rs file under `dir`.
fn crate_sources(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(crate_sources(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(std::fs::read_to_string(&p).unwrap());
        }
    }
    out
}

/// Every `rnsfhe::...` and `rnsfhe_math::...` path that README.md, examples/README.md, the
/// examples and the documentation's pages cite (in prose and doc comments, which no compiler checks) names a module or item that
/// exists (a moved module leaves stale references behind).
#[test]
fn cited_rust_paths_exist() {
    let mut stale = Vec::new();
    let mut count = 0;
    for (name, text) in documents() {
        for path in cited_paths(&text) {
            count += 1;
            if let Err(e) = resolve(&path) {
                stale.push(format!("{name}: {}: {e}", path.join("::")));
            }
        }
    }
    assert!(
        count >= 10,
        "only {count} cited paths found: the scan is broken"
    );
    assert!(stale.is_empty(), "stale references:\n{}", stale.join("\n"));
}

/// The module tables of docs/architecture.md, one per crate (`module (`crates/X/src/`)`), list
/// modules that exist under that crate's src/, and every directory there has its row.
#[test]
fn architecture_module_tables_match_the_tree() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let mut tables = 0;
    let mut problems = Vec::new();
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(src) = line
            .strip_prefix("| module (`")
            .and_then(|r| r.split('`').next())
        else {
            continue;
        };
        tables += 1;
        let mut listed = Vec::new();
        while let Some(row) = lines.next_if(|l| l.starts_with('|')) {
            let first = row.split('|').nth(1).unwrap_or("").trim();
            if first.starts_with("---") {
                continue;
            }
            let name = first.trim_matches('`');
            if !first.starts_with('`') || !root.join(src).join(name).exists() {
                problems.push(format!(
                    "{src}: row `{first}` is not a file or folder there"
                ));
            }
            listed.push(name.trim_end_matches('/').to_string());
        }
        for e in std::fs::read_dir(root.join(src)).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() && !listed.contains(&name) {
                problems.push(format!("{src}: folder {name}/ has no row"));
            }
        }
    }
    assert_eq!(
        tables, 2,
        "docs/architecture.md has a module table per crate"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every crate of the workspace inherits the workspace's `rust-version`, so that clippy's
/// incompatible_msrv lint checks all of them against it (a crate without it lets through APIs newer
/// than the version declared).
#[test]
fn every_crate_declares_the_workspace_rust_version() {
    let root = root();
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        workspace
            .lines()
            .any(|l| l.starts_with("rust-version = \"")),
        "the workspace declares no rust-version"
    );
    let mut crates = 0;
    for e in std::fs::read_dir(root.join("crates")).unwrap() {
        let manifest = e.unwrap().path().join("Cargo.toml");
        if let Ok(text) = std::fs::read_to_string(&manifest) {
            crates += 1;
            assert!(
                text.lines().any(|l| l == "rust-version.workspace = true"),
                "{} does not inherit the workspace's rust-version",
                manifest.display()
            );
        }
    }
    assert!(crates >= 4, "only {crates} crates found");
}

/// The README's Rust quickstart is compiled and run: its lines are those of
/// tests/readme_quickstart.rs between the markers (the `use` lines at the top of that file).
#[test]
fn readme_rust_quickstart_is_the_tested_one() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block = readme
        .split("```rust\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let test =
        std::fs::read_to_string(root.join("crates/rnsfhe/tests/readme_quickstart.rs")).unwrap();
    let body = test
        .split("// README quickstart: begin\n")
        .nth(1)
        .and_then(|b| b.split("    // README quickstart: end").next())
        .unwrap();
    let lines = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let (uses, code): (Vec<String>, Vec<String>) = lines(block)
        .into_iter()
        .partition(|l| l.starts_with("use "));
    assert_eq!(
        code,
        lines(body),
        "README's Rust quickstart differs from the tested one"
    );
    for u in uses {
        assert!(
            test.lines().any(|l| l == u),
            "tests/readme_quickstart.rs lacks `{u}`"
        );
    }
}
