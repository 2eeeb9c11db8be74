//! The opt-in to parameter sets marked insecure (research only) read from bytes or pickles: per
//! call (`from_bytes(data, security="insecure")`) or for the whole process
//! (`allow_insecure_parameters`, `RNSFHE_ALLOW_INSECURE=1`). Without it such bytes are refused, so
//! that a peer cannot hand a server toy parameters.

use pyo3::prelude::*;

use crate::raise;

/// The process-wide opt-in to parameter sets marked insecure read from bytes or pickles (set by
/// `allow_insecure_parameters`, or `RNSFHE_ALLOW_INSECURE=1` in the environment, which worker
/// processes inherit).
static ALLOW_INSECURE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether parameter sets marked insecure may be read from bytes without a per-call opt-in.
pub(crate) fn insecure_allowed() -> bool {
    ALLOW_INSECURE.load(std::sync::atomic::Ordering::Relaxed)
        || std::env::var("RNSFHE_ALLOW_INSECURE").is_ok_and(|v| v == "1")
}

/// Sets the process-wide opt-in of [`insecure_allowed`].
pub(crate) fn set_insecure_allowed(allow: bool) {
    ALLOW_INSECURE.store(allow, std::sync::atomic::Ordering::Relaxed);
}

/// Refuses parameters `name` of `security` read from bytes unless `allow` (the per-call opt-in) or
/// the process-wide opt-in.
pub(crate) fn check(security: rnsfhe::params::Security, allow: bool, name: &str) -> PyResult<()> {
    if security != rnsfhe::params::Security::InsecureResearchOnly || allow || insecure_allowed() {
        return Ok(());
    }
    Err(raise(
        "ParameterError",
        format!(
            "these {name} bytes describe parameters marked insecure (research only): load them \
             with from_bytes(data, security=\"insecure\"), or opt this process in with \
             rnsfhe.allow_insecure_parameters() or RNSFHE_ALLOW_INSECURE=1 (pickles, worker \
             processes)"
        ),
    ))
}

/// `security=` of `from_bytes`: None (secure sets only) or "insecure" (the opt-in).
pub(crate) fn insecure_opt_in(obj: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    match obj {
        None => Ok(false),
        Some(o) if o.extract::<String>().is_ok_and(|s| s == "insecure") => Ok(true),
        Some(o) => Err(raise(
            "ParameterError",
            format!(
                "from_bytes takes security=\"insecure\" (to load a research parameter set) or \
                 nothing, got {}",
                o.repr()?
            ),
        )),
    }
}

/// Lets this process read parameter sets marked insecure (research only) from bytes and pickles
/// without `security="insecure"` on each call (`allow=False` takes it back). The environment
/// variable `RNSFHE_ALLOW_INSECURE=1` does the same for a process and its workers. Without either,
/// a pickle or bytes of insecure parameters are refused unless this process holds a live context
/// of exactly those parameters (made with the constructor's opt-in).
#[pyfunction]
#[pyo3(signature = (allow = true))]
pub(crate) fn allow_insecure_parameters(allow: bool) {
    set_insecure_allowed(allow);
}
