//! Key generation's and training's progress: a Python callback called from Rust with the GIL taken
//! back for the call only.

use super::super::*;

/// A `progress=` argument as a Python callable (`rnsfhe._progress.callback`), called from Rust
/// with the GIL taken back for the call only; its first error is kept and raised after the run.
pub(super) struct Progress(Option<Py<PyAny>>);

impl Progress {
    pub(super) fn new(
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        desc: &str,
    ) -> PyResult<Self> {
        let cb = py
            .import("rnsfhe._progress")?
            .getattr("callback")?
            .call1((progress, desc))?;
        Ok(Progress((!cb.is_none()).then(|| cb.unbind())))
    }

    /// Runs `f` without the GIL, giving it the tick to call after each step.
    pub(super) fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn FnMut(usize, usize)) -> rnsfhe::Result<T> + Send,
    ) -> PyResult<T> {
        let mut failure: Option<PyErr> = None;
        let out = py.detach(|| {
            let mut tick = |done: usize, total: usize| {
                if let (Some(cb), None) = (&self.0, &failure) {
                    Python::attach(|py| {
                        if let Err(e) = cb.call1(py, (done, total)) {
                            failure = Some(e);
                        }
                    });
                }
            };
            f(&mut tick)
        });
        match failure {
            Some(e) => Err(e),
            None => out.py(),
        }
    }
}
