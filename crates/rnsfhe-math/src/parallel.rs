//! Threads across RNS limbs: the limbs of a polynomial are independent, so NTTs, key-switching
//! inner products and tensor products run one limb per task on a rayon pool.
//!
//! The thread count is 1 unless `RNSFHE_NUM_THREADS` (read once, at first use) or [`set_num_threads`]
//! says otherwise; 0 means every available core. Decision: one thread by default, as SEAL and fhe.rs do,
//! so that an application that already parallelises across ciphertexts (threads, processes, Dask) does
//! not oversubscribe the cores; with one thread the limb loops run inline on the caller's thread
//! (today's code, no pool, no overhead). Results do not depend on the thread count: every limb is
//! computed by the same code whichever thread runs it.
//!
//! Memory: each pool thread keeps its own buffer pool ([`crate::pool`]), bounded per thread; the limb
//! tasks use caller-provided slices and allocate at most one limb-sized scratch each.

use std::sync::{Arc, OnceLock, RwLock};

use rayon::prelude::*;

use crate::pool::Buffer;
use crate::{Error, Result};

/// The thread count and its pool (none for one thread).
struct Threads {
    count: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
}

static THREADS: OnceLock<RwLock<Threads>> = OnceLock::new();

fn build(count: usize) -> Result<Threads> {
    let count = if count == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        count
    };
    if count > 1024 {
        return Err(Error::OutOfRange(format!(
            "{count} threads requested; at most 1024"
        )));
    }
    let pool = if count > 1 {
        let p = rayon::ThreadPoolBuilder::new()
            .num_threads(count)
            .thread_name(|i| format!("rnsfhe-{i}"))
            .build()
            .map_err(|e| Error::OutOfRange(format!("cannot start {count} threads: {e}")))?;
        Some(Arc::new(p))
    } else {
        None
    };
    Ok(Threads { count, pool })
}

fn threads() -> &'static RwLock<Threads> {
    THREADS.get_or_init(|| {
        let from_env = std::env::var("RNSFHE_NUM_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(1);
        RwLock::new(build(from_env).unwrap_or(Threads {
            count: 1,
            pool: None,
        }))
    })
}

/// Sets the number of threads rnsfhe's operations use (0: every available core). Takes effect for
/// operations started afterwards.
pub fn set_num_threads(count: usize) -> Result<()> {
    let t = build(count)?;
    *threads().write().unwrap_or_else(|e| e.into_inner()) = t;
    Ok(())
}

/// The number of threads rnsfhe's operations use.
pub fn num_threads() -> usize {
    threads().read().unwrap_or_else(|e| e.into_inner()).count
}

fn pool() -> Option<Arc<rayon::ThreadPool>> {
    threads()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .pool
        .clone()
}

/// Runs `f(i, limb_i)` for every limb of `n` words of `data` (limb-major), in parallel when more than
/// one thread is set; the first error is returned (of any error type: the schemes pass their own).
pub fn for_each_limb<F, E>(data: &mut [u64], n: usize, f: F) -> std::result::Result<(), E>
where
    F: Fn(usize, &mut [u64]) -> std::result::Result<(), E> + Sync + Send,
    E: Send,
{
    let limbs = data.len() / n.max(1);
    match pool() {
        Some(p) if limbs > 1 => p.install(|| {
            data.par_chunks_mut(n)
                .enumerate()
                .try_for_each(|(i, limb)| f(i, limb))
        }),
        _ => data
            .chunks_mut(n.max(1))
            .enumerate()
            .try_for_each(|(i, limb)| f(i, limb)),
    }
}

/// [`for_each_limb`] over two arrays of limbs at once (`a` and `b` limb-major with the same limb
/// count and size), with a zeroed scratch of `scratch` words per task (one for the whole loop on one
/// thread; one per rayon split otherwise), taken from the buffer pool.
pub fn for_each_limb2<F, E>(
    a: &mut [u64],
    b: &mut [u64],
    n: usize,
    scratch: usize,
    f: F,
) -> std::result::Result<(), E>
where
    F: Fn(usize, &mut [u64], &mut [u64], &mut [u64]) -> std::result::Result<(), E> + Sync + Send,
    E: Send + From<Error>,
{
    if a.len() != b.len() {
        return Err(E::from(Error::LengthMismatch {
            what: "limb arrays",
            expected: a.len(),
            got: b.len(),
        }));
    }
    let n = n.max(1);
    let limbs = a.len() / n;
    match pool() {
        Some(p) if limbs > 1 => p.install(|| {
            a.par_chunks_mut(n)
                .zip(b.par_chunks_mut(n))
                .enumerate()
                .try_for_each_init(|| Buffer::zeroed(scratch), |s, (i, (x, y))| f(i, x, y, s))
        }),
        _ => {
            let mut s = Buffer::zeroed(scratch);
            a.chunks_mut(n)
                .zip(b.chunks_mut(n))
                .enumerate()
                .try_for_each(|(i, (x, y))| f(i, x, y, &mut s))
        }
    }
}

/// `f(0), ..., f(count - 1)` in order, computed in parallel when more than one thread is set; the
/// first error is returned.
pub fn map<T, F, E>(count: usize, f: F) -> std::result::Result<Vec<T>, E>
where
    T: Send,
    E: Send,
    F: Fn(usize) -> std::result::Result<T, E> + Sync + Send,
{
    map_owned((0..count).collect(), f)
}

/// `(a(), b())`, side by side when more than one thread is set.
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    match pool() {
        Some(p) => p.install(|| rayon::join(a, b)),
        None => (a(), b()),
    }
}

/// `f` applied to every item (in order), in parallel when more than one thread is set; the first
/// error is returned.
pub fn map_owned<T, U, F, E>(items: Vec<T>, f: F) -> std::result::Result<Vec<U>, E>
where
    T: Send,
    U: Send,
    E: Send,
    F: Fn(T) -> std::result::Result<U, E> + Sync + Send,
{
    match pool() {
        Some(p) if items.len() > 1 => p.install(|| items.into_par_iter().map(&f).collect()),
        _ => items.into_iter().map(f).collect(),
    }
}
