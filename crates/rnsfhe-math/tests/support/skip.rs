//! Kernel tests that cannot run on this CPU say so where the run is counted. A test asks [`runs`]
//! (or [`backends_for`]) before it exercises a SIMD backend; when the CPU lacks the backend's
//! instructions the test records a line `SKIPPED(no AVX-512): <test>` on stderr and, when
//! `RNSFHE_SKIP_LOG` names a file, appends it there (`make test` sets it and its summary counts the
//! file's lines; the harness hides a passing test's stderr). `RNSFHE_PRETEND_NO_AVX512=1` hides
//! AVX-512 and AVX-512 IFMA from these tests, to check the counting on a machine that has them.
//! Shared by the integration tests (`#[path = "support/skip.rs"] mod skip;`) and the crate's unit
//! tests (`crate::skip`).
#![allow(dead_code, clippy::unwrap_used)] // each test file uses what it needs

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::Mutex;

use rnsfhe_math::arith::{available_backends, Backend, Modulus};

/// Whether `RNSFHE_PRETEND_NO_AVX512` is set to 1.
fn pretend_no_avx512() -> bool {
    std::env::var("RNSFHE_PRETEND_NO_AVX512").is_ok_and(|v| v.trim() == "1")
}

/// What the CPU lacks for `b` ("AVX2", "AVX-512", "AVX-512 IFMA"), or `None` when the tests may run it.
fn missing(b: Backend) -> Option<&'static str> {
    let hidden = pretend_no_avx512() && matches!(b, Backend::Avx512 | Backend::Avx512Ifma);
    if b.is_supported() && !hidden {
        return None;
    }
    Some(match b {
        Backend::Avx2 => "AVX2",
        Backend::Avx512 => "AVX-512",
        Backend::Avx512Ifma if Backend::Avx512.is_supported() && !hidden => "AVX-512 IFMA",
        Backend::Avx512Ifma => "AVX-512",
        _ => "the backend's instructions",
    })
}

/// Records that `test` skipped a kernel for want of `what` (once per process).
fn record(what: &str, test: &str) {
    static SEEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let line = format!("SKIPPED(no {what}): {test}");
    if !SEEN.lock().unwrap().insert(line.clone()) {
        return;
    }
    eprintln!("{line}");
    if let Some(path) = std::env::var_os("RNSFHE_SKIP_LOG") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        writeln!(f, "{line}").unwrap();
    }
}

/// Whether `test` may run backend `b` on this CPU; records the skip when not.
pub fn runs(b: Backend, test: &str) -> bool {
    match missing(b) {
        None => true,
        Some(what) => {
            record(what, test);
            false
        }
    }
}

/// The backends this CPU runs for q (`available_backends`) that `test` may run, the others of
/// AVX2, AVX-512 and AVX-512 IFMA recorded as skipped when the CPU (not q's width) rules them out.
pub fn backends_for(q: &Modulus, test: &str) -> Vec<Backend> {
    for b in [Backend::Avx2, Backend::Avx512, Backend::Avx512Ifma] {
        if missing(b).is_some() {
            runs(b, test);
        }
    }
    available_backends(q)
        .into_iter()
        .filter(|&b| missing(b).is_none())
        .collect()
}
