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
//!
//! Small fan-outs stay on the calling thread: handing a job to the pool and waiting for it costs two
//! thread wake-ups (about 12 us a round trip on a 2-core AMD EPYC Zen 4, more on a loaded machine),
//! which a decryption, an addition or a rescale at small degrees never wins back. Every fan-out says
//! how many words it touches and how heavy each word is ([`Work`]); below
//! [`min_parallel_words`] words of heavy work it runs inline, with no pool, no lock and no wake-up.

use std::sync::atomic::{AtomicUsize, Ordering};
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

/// The cost of one word of a fan-out, which decides with its word count whether it is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// About log n operations a word or more: NTTs, base conversions, inner products over many
    /// digits, key-switching limbs.
    Heavy,
    /// One or two modular operations a word: additions, copies, permutations. Counted as
    /// [`LIGHT_PER_HEAVY`] times fewer words.
    Light,
    /// A sum of this many modular products a word (a base conversion from that many primes, an inner
    /// product of that many digits, a tensor product): 1 / [`PRODUCTS_PER_HEAVY`] heavy word each.
    Products(usize),
}

/// Words of [`Work::Light`] that cost about one word of [`Work::Heavy`]: on one core of an AMD EPYC
/// Zen 4 (IFMA kernels, n = 2^14) an NTT costs about 4 ns a word and a vector addition 0.28 ns
/// (`rnsfhe bench threads`: an NTT and its inverse of 2^14 words 130 us, a sum of 2^15 words 9.2 us).
pub const LIGHT_PER_HEAVY: usize = 16;

/// Modular products (with their sums) that cost about one word of [`Work::Heavy`]: about 1 ns a
/// product against 4 ns an NTT word (CKKS N = 2^15, L = 10 on one Zen 4 core: the tensor product
/// of two ciphertexts, 4 products over 11 limbs of 2^15 words, takes 1.35 ms).
pub const PRODUCTS_PER_HEAVY: usize = 4;

/// The default of [`min_parallel_words`]: 2^16 words of heavy work, about 260 us on one core. A
/// hand-off to the pool and back costs about 12 us (an empty job, measured on the same 2-core Zen 4
/// under a load average of 12), so that a fan-out of this size whose second thread is late costs at
/// most 5% more than on one thread, and one whose second thread is free saves up to half.
/// `rnsfhe bench threads` times one thread against two on fan-outs of 2^14 to 2^20 words.
pub const DEFAULT_MIN_PARALLEL_WORDS: usize = 1 << 16;

static MIN_PARALLEL_WORDS: AtomicUsize = AtomicUsize::new(DEFAULT_MIN_PARALLEL_WORDS);

/// Sets the fewest words of heavy work that a fan-out splits across threads (0: every fan-out of
/// more than one task; tests use it to run the threaded paths at small degrees). Results do not
/// depend on it.
pub fn set_min_parallel_words(words: usize) {
    MIN_PARALLEL_WORDS.store(words, Ordering::Relaxed);
}

/// The fewest words of heavy work that a fan-out splits across threads
/// ([`DEFAULT_MIN_PARALLEL_WORDS`] unless [`set_min_parallel_words`] said otherwise).
pub fn min_parallel_words() -> usize {
    MIN_PARALLEL_WORDS.load(Ordering::Relaxed)
}

/// Heavy-equivalent words of `words` words of `work`.
fn weight(words: usize, work: Work) -> usize {
    match work {
        Work::Heavy => words,
        Work::Light => words / LIGHT_PER_HEAVY,
        Work::Products(k) => words.saturating_mul(k) / PRODUCTS_PER_HEAVY,
    }
}

/// The pool, when more than one thread is set and `words` words of `work` are worth splitting.
fn pool_for(words: usize, work: Work) -> Option<Arc<rayon::ThreadPool>> {
    if weight(words, work) < min_parallel_words() {
        return None;
    }
    pool()
}

/// Whether a fan-out of `words` words of `work` runs on more than one thread: for callers whose
/// loop order differs between the two (any order gives the same words).
pub fn splits(words: usize, work: Work) -> bool {
    pool_for(words, work).is_some()
}

/// Runs `f(i, limb_i)` for every limb of `n` words of `data` (limb-major), in parallel when more than
/// one thread is set and the limbs hold at least [`min_parallel_words`] words of heavy work; the
/// first error is returned (of any error type: the schemes pass their own).
pub fn for_each_limb<F, E>(data: &mut [u64], n: usize, f: F) -> std::result::Result<(), E>
where
    F: Fn(usize, &mut [u64]) -> std::result::Result<(), E> + Sync + Send,
    E: Send,
{
    for_each_limb_as(Work::Heavy, data, n, f)
}

/// [`for_each_limb`] for a fan-out whose words cost `work` each.
pub fn for_each_limb_as<F, E>(
    work: Work,
    data: &mut [u64],
    n: usize,
    f: F,
) -> std::result::Result<(), E>
where
    F: Fn(usize, &mut [u64]) -> std::result::Result<(), E> + Sync + Send,
    E: Send,
{
    let limbs = data.len() / n.max(1);
    match pool_for(data.len(), work) {
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
/// thread; one per rayon split otherwise), taken from the buffer pool; split when `a` and `b` hold
/// at least [`min_parallel_words`] words of `work`.
pub fn for_each_limb2<F, E>(
    work: Work,
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
    match pool_for(a.len() + b.len(), work) {
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

/// [`for_each_limb`] over several arrays of limbs at once (each limb-major, all with the same limb
/// count and size n): `f(i, limbs)` with limb i of every array, in the order given; split when the
/// arrays together hold at least [`min_parallel_words`] words of `work`. One task per limb index
/// (the arrays' limbs i side by side); [`for_each_array_limb`] makes one task per (array, limb).
pub fn for_each_limb_of<F, E>(
    work: Work,
    arrays: &mut [&mut [u64]],
    n: usize,
    f: F,
) -> std::result::Result<(), E>
where
    F: Fn(usize, &mut [&mut [u64]]) -> std::result::Result<(), E> + Sync + Send,
    E: Send + From<Error>,
{
    let n = n.max(1);
    let len = arrays.first().map_or(0, |a| a.len());
    if let Some(a) = arrays.iter().find(|a| a.len() != len) {
        return Err(E::from(Error::LengthMismatch {
            what: "limb arrays",
            expected: len,
            got: a.len(),
        }));
    }
    let limbs = len / n;
    let mut groups: Vec<Vec<&mut [u64]>> = (0..limbs)
        .map(|_| Vec::with_capacity(arrays.len()))
        .collect();
    let words = len * arrays.len();
    for a in arrays.iter_mut() {
        for (g, limb) in groups.iter_mut().zip(a.chunks_mut(n)) {
            g.push(limb);
        }
    }
    match pool_for(words, work) {
        Some(p) if limbs > 1 => p.install(|| {
            groups
                .par_iter_mut()
                .enumerate()
                .try_for_each(|(i, g)| f(i, g))
        }),
        _ => groups.iter_mut().enumerate().try_for_each(|(i, g)| f(i, g)),
    }
}

/// `f(a, i, limb_i of arrays[a], scratch)` for every limb of every array (each limb-major with limbs
/// of `n` words): one fan-out over all (array, limb) pairs, so that two polynomials of an odd limb
/// count keep two threads busy to the end. `scratch` words per task as in [`for_each_limb2`], taken
/// stale from the buffer pool (the task writes before it reads). Split when the arrays hold at least
/// [`min_parallel_words`] words of `work`; the first error is returned.
pub fn for_each_array_limb<F, E>(
    work: Work,
    arrays: Vec<&mut [u64]>,
    n: usize,
    scratch: usize,
    f: F,
) -> std::result::Result<(), E>
where
    F: Fn(usize, usize, &mut [u64], &mut [u64]) -> std::result::Result<(), E> + Sync + Send,
    E: Send,
{
    let n = n.max(1);
    let words: usize = arrays.iter().map(|a| a.len()).sum();
    let tasks: Vec<(usize, usize, &mut [u64])> = arrays
        .into_iter()
        .enumerate()
        .flat_map(|(a, data)| {
            data.chunks_mut(n)
                .enumerate()
                .map(move |(i, limb)| (a, i, limb))
        })
        .collect();
    match pool_for(words, work) {
        Some(p) if tasks.len() > 1 => p.install(|| {
            tasks.into_par_iter().try_for_each_init(
                || Buffer::stale(scratch),
                |s, (a, i, limb)| f(a, i, limb, s),
            )
        }),
        _ => {
            let mut s = Buffer::stale(scratch);
            tasks
                .into_iter()
                .try_for_each(|(a, i, limb)| f(a, i, limb, &mut s))
        }
    }
}

/// `f(0), ..., f(count - 1)` in order, computed in parallel when more than one thread is set and
/// the calls together touch at least [`min_parallel_words`] words of heavy work (`words`); the
/// first error is returned.
pub fn map<T, F, E>(count: usize, words: usize, f: F) -> std::result::Result<Vec<T>, E>
where
    T: Send,
    E: Send,
    F: Fn(usize) -> std::result::Result<T, E> + Sync + Send,
{
    map_owned((0..count).collect(), words, f)
}

/// `(a(), b())`, side by side when more than one thread is set and the two together touch at least
/// [`min_parallel_words`] words of heavy work (`words`).
pub fn join<A, B, RA, RB>(words: usize, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    match pool_for(words, Work::Heavy) {
        Some(p) => p.install(|| rayon::join(a, b)),
        None => (a(), b()),
    }
}

/// `f` applied to every item (in order), in parallel when more than one thread is set and the calls
/// together touch at least [`min_parallel_words`] words of heavy work (`words`); the first error is
/// returned.
pub fn map_owned<T, U, F, E>(items: Vec<T>, words: usize, f: F) -> std::result::Result<Vec<U>, E>
where
    T: Send,
    U: Send,
    E: Send,
    F: Fn(T) -> std::result::Result<U, E> + Sync + Send,
{
    match pool_for(words, Work::Heavy) {
        Some(p) if items.len() > 1 => p.install(|| items.into_par_iter().map(&f).collect()),
        _ => items.into_iter().map(f).collect(),
    }
}
