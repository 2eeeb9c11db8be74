//! `rnsfhe --version` prints the workspace's version, read here from the workspace's Cargo.toml (the
//! one place it is written) rather than from the binary's own build.

use std::process::Command;

/// The `version = "..."` of `[workspace.package]` in the workspace's Cargo.toml.
fn workspace_version() -> String {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let text = std::fs::read_to_string(manifest).unwrap_or_default();
    let section = text.split("[workspace.package]").nth(1).unwrap_or_default();
    section
        .lines()
        .find_map(|l| l.trim().strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn version_flag_prints_the_workspace_version() {
    let want = workspace_version();
    assert!(!want.is_empty(), "no version in [workspace.package]");
    for flag in ["--version", "-V"] {
        let out = Command::new(env!("CARGO_BIN_EXE_rnsfhe"))
            .arg(flag)
            .output()
            .expect("run the rnsfhe binary");
        assert!(out.status.success(), "rnsfhe {flag} failed");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            format!("rnsfhe {want}")
        );
    }
}
