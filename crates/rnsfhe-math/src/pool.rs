//! A per-thread pool of word buffers for the large temporaries of ring and RNS operations (the role of
//! SEAL's memory pool): freeing a multi-megabyte buffer and allocating it again otherwise costs page
//! faults on every operation (measured: a third of a BFV multiplication at n = 2^14).
//!
//! [`Buffer`] takes a vector from the pool (or allocates), zero-filled, and gives it back on drop. At
//! most [`MAX_POOLED`] buffers of at least [`MIN_POOLED`] words, [`MAX_POOLED_WORDS`] words in all, are
//! kept per thread, and [`MAX_POOLED_TOTAL_WORDS`] over all threads together, so that pooled memory
//! does not grow with the thread count (see [`crate::parallel`]). Pooled memory is
//! not zeroized; secret-bearing buffers zeroize themselves before they are dropped.

use std::cell::RefCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Buffers kept per thread.
pub const MAX_POOLED: usize = 64;
/// Words kept per thread at most (256 MiB).
pub const MAX_POOLED_WORDS: usize = 1 << 25;
/// Smaller buffers are not pooled (the allocator serves them well).
pub const MIN_POOLED: usize = 1 << 12;

/// Words kept over all threads at most (512 MiB).
pub const MAX_POOLED_TOTAL_WORDS: usize = 1 << 26;

/// Words pooled now, over all threads.
static POOLED_TOTAL: AtomicUsize = AtomicUsize::new(0);

/// A thread's free list; its words leave the global count when the thread ends.
struct Free(Vec<Vec<u64>>);

impl Drop for Free {
    fn drop(&mut self) {
        let held: usize = self.0.iter().map(Vec::capacity).sum();
        POOLED_TOTAL.fetch_sub(held, Ordering::Relaxed);
    }
}

thread_local! {
    static FREE: RefCell<Free> = const { RefCell::new(Free(Vec::new())) };
}

/// Words pooled now over all threads (at most [`MAX_POOLED_TOTAL_WORDS`]).
pub fn pooled_words() -> usize {
    POOLED_TOTAL.load(Ordering::Relaxed)
}

/// A vector from the pool with capacity >= len when one fits (its old contents kept), else a new empty
/// one.
fn take(len: usize) -> Vec<u64> {
    if len < MIN_POOLED {
        return Vec::new();
    }
    FREE.with(|f| {
        let f = &mut f.borrow_mut().0;
        let best = f
            .iter()
            .enumerate()
            .filter(|(_, v)| v.capacity() >= len && v.capacity() <= 2 * len)
            .min_by_key(|(_, v)| v.capacity())
            .map(|(i, _)| i);
        let v = best.map(|i| f.swap_remove(i));
        if let Some(v) = &v {
            POOLED_TOTAL.fetch_sub(v.capacity(), Ordering::Relaxed);
        }
        v
    })
    .unwrap_or_default()
}

/// A vector of `len` words from the pool, filled by `fill` (which receives an empty vector with
/// capacity >= len and must leave it with length len).
fn take_with(len: usize, fill: impl FnOnce(&mut Vec<u64>)) -> Vec<u64> {
    let mut v = take(len);
    v.clear();
    if v.capacity() < len {
        v.reserve_exact(len);
    }
    fill(&mut v);
    v
}

/// A zero-filled vector of `len` words, from the pool when one fits.
pub fn zeroed(len: usize) -> Vec<u64> {
    take_with(len, |v| v.resize(len, 0))
}

/// A vector of `len` words, from the pool when one fits, written by `fill` (which receives it empty
/// and must push exactly `len` words): no zero-fill before the values.
pub fn filled(len: usize, fill: impl FnOnce(&mut Vec<u64>)) -> Vec<u64> {
    let v = take_with(len, fill);
    debug_assert_eq!(v.len(), len);
    v
}

/// A vector of `len` words of unspecified value (a pooled vector's old words, zeros beyond them): for
/// outputs the caller overwrites entirely before reading, without the zero fill.
pub fn stale(len: usize) -> Vec<u64> {
    let mut v = take(len);
    if v.len() >= len {
        v.truncate(len);
    } else {
        v.resize(len, 0);
    }
    v
}

/// A copy of `src`, in a pooled vector when one fits.
pub fn copied(src: &[u64]) -> Vec<u64> {
    take_with(src.len(), |v| v.extend_from_slice(src))
}

/// Returns a vector to this thread's pool (dropped if small or the pool is full). A full pool gives up
/// its smallest buffers for a larger one: many per-limb scratches must not crowd out the
/// polynomial-sized buffers whose reallocation costs page faults (measured: CKKS N = 2^15 with
/// per-limb scratches took 7x the page faults and 10% more time before this rule).
pub fn recycle(v: Vec<u64>) {
    let cap = v.capacity();
    if !(MIN_POOLED..=MAX_POOLED_WORDS).contains(&cap) {
        return;
    }
    FREE.with(|f| {
        if let Ok(mut f) = f.try_borrow_mut() {
            let f = &mut f.0;
            let mut held: usize = f.iter().map(Vec::capacity).sum();
            while f.len() >= MAX_POOLED || held + cap > MAX_POOLED_WORDS {
                let smallest = f
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, v)| v.capacity())
                    .map(|(i, v)| (i, v.capacity()));
                match smallest {
                    Some((i, c)) if c < cap => {
                        f.swap_remove(i);
                        held -= c;
                        POOLED_TOTAL.fetch_sub(c, Ordering::Relaxed);
                    }
                    _ => return,
                }
            }
            let total = POOLED_TOTAL.fetch_add(cap, Ordering::Relaxed);
            if total + cap <= MAX_POOLED_TOTAL_WORDS {
                f.push(v);
            } else {
                POOLED_TOTAL.fetch_sub(cap, Ordering::Relaxed);
            }
        }
    });
}

/// A zero-filled scratch buffer that returns to the pool when dropped.
pub struct Buffer(Vec<u64>);

impl Buffer {
    /// `len` zero words.
    pub fn zeroed(len: usize) -> Self {
        Buffer(zeroed(len))
    }

    /// `len` words of unspecified value (a pooled buffer's old words, zeros beyond them): scratch that
    /// the caller overwrites entirely before reading, without the zero fill.
    pub fn stale(len: usize) -> Self {
        Buffer(stale(len))
    }
}

impl Deref for Buffer {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u64] {
        &mut self.0
    }
}

impl<'a> IntoIterator for &'a Buffer {
    type Item = &'a u64;
    type IntoIter = std::slice::Iter<'a, u64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        recycle(std::mem::take(&mut self.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_zeroed_and_reused() {
        let mut a = Buffer::zeroed(MIN_POOLED);
        a.iter_mut().for_each(|x| *x = 7);
        let ptr = a.as_ptr();
        drop(a);
        let b = Buffer::zeroed(MIN_POOLED);
        assert_eq!(b.as_ptr(), ptr);
        assert!(b.iter().all(|&x| x == 0));
        let mut d = Buffer::stale(MIN_POOLED + 1);
        assert_eq!(d.len(), MIN_POOLED + 1);
        d.iter_mut().for_each(|x| *x = 5);
        let ptr = d.as_ptr();
        drop(d);
        // The same buffer again, its words kept, shorter or longer (zeros beyond the old words).
        let e = Buffer::stale(MIN_POOLED);
        assert_eq!((e.as_ptr(), e.len()), (ptr, MIN_POOLED));
        assert!(e.iter().all(|&x| x == 5));
        drop(e);
        let f = Buffer::stale(MIN_POOLED + 1);
        assert_eq!(f.as_ptr(), ptr);
        assert_eq!(f[MIN_POOLED - 1..], [5, 0]);
        drop(f);
        let c = copied(&[1, 2, 3]);
        assert_eq!(c, vec![1, 2, 3]);
    }

    #[test]
    fn small_buffers_do_not_crowd_out_a_large_one() {
        // A pool full of small scratches still takes a polynomial-sized buffer back.
        let small: Vec<Buffer> = (0..MAX_POOLED)
            .map(|_| Buffer::zeroed(MIN_POOLED))
            .collect();
        drop(small);
        let big = Buffer::zeroed(64 * MIN_POOLED);
        let ptr = big.as_ptr();
        drop(big);
        let again = Buffer::zeroed(64 * MIN_POOLED);
        assert_eq!(again.as_ptr(), ptr);
        assert!(FREE.with(|f| f.borrow().0.len()) <= MAX_POOLED);
    }
}
