//! Wall-clock timing for the tables: batches sized to a time budget, the median batch reported.

use std::time::{Duration, Instant};

/// How long to measure each row.
#[derive(Clone, Copy)]
pub struct Budget {
    per_row: Duration,
}

impl Budget {
    /// 0.5 s per row, or 0.05 s with `quick`.
    pub fn new(quick: bool) -> Self {
        Budget {
            per_row: Duration::from_millis(if quick { 50 } else { 500 }),
        }
    }

    /// Seconds per call of `f`: one warm-up call, then 7 batches of a size that fills about a seventh of
    /// the budget each; the fastest batch divided by its size (the minimum is the estimate least
    /// disturbed by other processes on a shared machine).
    pub fn seconds_per_call(&self, mut f: impl FnMut()) -> f64 {
        f();
        let target = self.per_row / 7;
        let mut iters = 1u32;
        loop {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            let took = start.elapsed();
            if took >= target / 4 || iters >= 1 << 24 {
                let scale = (target.as_secs_f64() / took.as_secs_f64().max(1e-9)).clamp(1.0, 64.0);
                iters = ((f64::from(iters) * scale) as u32).max(1);
                break;
            }
            iters *= 2;
        }
        (0..7)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..iters {
                    f();
                }
                start.elapsed().as_secs_f64() / f64::from(iters)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Seconds per call of `f` on a fresh state from `setup` (untimed, as is dropping the state):
    /// each call timed alone, until the row's budget of timed calls is spent (at least 8 calls);
    /// the fastest call, as [`Self::seconds_per_call`] reads its batches.
    pub fn seconds_per_prepared_call<S>(
        &self,
        mut setup: impl FnMut() -> S,
        mut f: impl FnMut(&mut S),
    ) -> f64 {
        let (mut spent, mut best, mut calls) = (0.0, f64::INFINITY, 0u32);
        while calls < 8 || spent < self.per_row.as_secs_f64() {
            let mut state = setup();
            let start = Instant::now();
            f(&mut state);
            let took = start.elapsed().as_secs_f64();
            drop(state);
            spent += took;
            best = best.min(took);
            calls += 1;
            if calls >= 1 << 20 {
                break;
            }
        }
        best
    }
}

/// A duration in seconds, printed with a unit that keeps 3 significant digits.
pub fn human(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.3} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}

/// A byte count in KiB or MiB.
pub fn kib(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}
