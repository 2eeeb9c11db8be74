//! `rnsfhe bench network`: the encrypted neural network on scikit-learn's digits, which is a Python
//! program (`examples/python/digits_network.py`: the network is trained in the clear with numpy,
//! the data set comes with scikit-learn). This suite runs it with the interpreter of `$PYTHON`
//! (default `python3`, which must import `rnsfhe` and `sklearn`) and puts its report in the
//! bench report: the 128-bit N = 2^16 preset, or the INSECURE toy with --quick.

use std::process::Command;

use rnsfhe::{Error, Result};

use crate::report::Report;

/// `rnsfhe bench network`.
pub fn run(quick: bool, rep: &mut Report) -> Result<()> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/python/digits_network.py"
    );
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let mut cmd = Command::new(&python);
    cmd.arg(script);
    if quick {
        cmd.arg("--small");
    }
    let out = cmd.output().map_err(|e| {
        Error::InvalidParameters(format!(
            "could not run {python} {script}: {e} (set PYTHON to an interpreter with rnsfhe and \
             scikit-learn installed)"
        ))
    })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    rep.text(&format!(
        "\n### Encrypted neural network on the digits ({})\n\n```\n{}```\n",
        if quick {
            "INSECURE toy, N = 2^11"
        } else {
            "128-bit, N = 2^16"
        },
        stdout
    ));
    if !out.status.success() {
        return Err(Error::Internal(format!(
            "{python} {script} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}
