//! Multi-block ChaCha20 keystream (Bernstein 2008; RFC 8439 core with a 64-bit block counter in words
//! 12-13 and a 64-bit stream id in words 14-15), bit-identical to `rand_chacha`'s `ChaCha20Rng` after
//! `from_seed(seed)` and `set_stream(stream)`, and the rejection sampler of seed expansion on top of it.
//!
//! The keystream is made [`BATCH_BLOCKS`] blocks at a time by one of three kernels: a portable scalar
//! reference (4 blocks side by side in plain Rust), AVX2 (8 blocks, one 32-bit lane per block) and AVX-512F (16 blocks),
//! the SIMD forms transposing their word-major state back to stream order (the layout of the
//! multi-block implementations of Goll and Gueron 2014). The kernel follows the `RNSFHE_BACKEND` ceiling
//! ([`backend`]): AVX-512F for `avx512`/`avx512ifma`, AVX2 for `avx2`, else scalar. The portable kernel is
//! the reference and the fallback; it is about 3x slower than `rand_chacha` (which dispatches to
//! SSE2/AVX2 itself), so the callers use `rand_chacha` under the scalar ceiling.
//!
//! Word k of the output as u64 is `w[2k] | w[2k+1] << 32` of the 32-bit keystream, which is what
//! `ChaCha20Rng::next_u64` returns from a fresh generator; [`Keystream::fill_uniform`] consumes these
//! words exactly as `Csprng::uniform_mod` does (top `bits(q)` bits, retry while >= q).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(test)]
mod tests;

use zeroize::Zeroize;

use crate::arith::{backend, Backend, Modulus};

/// Blocks per refill: 16 blocks = 1 KiB of keystream = 128 u64 words.
pub(crate) const BATCH_BLOCKS: usize = 16;
/// u64 words per refill.
const BATCH_WORDS: usize = BATCH_BLOCKS * 8;

/// "expand 32-byte k".
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// A keystream kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Kernel {
    /// The kernel of a backend, or None when this CPU lacks its instructions.
    pub(crate) fn of(b: Backend) -> Option<Kernel> {
        if !b.is_supported() {
            return None;
        }
        Some(match b {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 | Backend::Avx512Ifma => Kernel::Avx512,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => Kernel::Avx2,
            _ => Kernel::Scalar,
        })
    }

    /// The kernel within the process-wide backend ceiling.
    pub(crate) fn current() -> Kernel {
        Kernel::of(backend()).unwrap_or(Kernel::Scalar)
    }
}

/// A ChaCha20 keystream on one (key, stream) from block 0, read as u64 words. Holds key-derived data
/// (the input state and a buffer of output), wiped on drop.
pub(crate) struct Keystream {
    /// The input state with words 12-13 (block counter) left zero.
    state: [u32; 16],
    /// The counter of the first block of the next refill.
    counter: u64,
    buf: [u64; BATCH_WORDS],
    /// Next unread word of `buf` (`BATCH_WORDS` = empty).
    pos: usize,
    kernel: Kernel,
}

impl Drop for Keystream {
    fn drop(&mut self) {
        // `zeroize` writes volatilely, so the wipe is not optimised away.
        self.state.zeroize();
        self.buf.zeroize();
        self.counter.zeroize();
    }
}

impl Keystream {
    /// ChaCha20 keyed by `seed` (little-endian words) on `stream`, block counter 0.
    pub(crate) fn new(seed: &[u8; 32], stream: u64, kernel: Kernel) -> Self {
        let mut state = [0u32; 16];
        state[..4].copy_from_slice(&SIGMA);
        for (w, b) in state[4..12].iter_mut().zip(seed.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        state[14] = stream as u32;
        state[15] = (stream >> 32) as u32;
        Keystream {
            state,
            counter: 0,
            buf: [0; BATCH_WORDS],
            pos: BATCH_WORDS,
            kernel,
        }
    }

    /// The same keystream from 32-bit word `word_pos` on (`rand_chacha`'s `get_word_pos`), or None when
    /// `word_pos` is odd (u64 words here start at even positions) or beyond the 64-bit block counter.
    pub(crate) fn at_word(
        seed: &[u8; 32],
        stream: u64,
        word_pos: u128,
        kernel: Kernel,
    ) -> Option<Self> {
        let block = u64::try_from(word_pos / 16).ok()?;
        if !word_pos.is_multiple_of(2) {
            return None;
        }
        let mut ks = Keystream::new(seed, stream, kernel);
        ks.counter = block;
        ks.refill();
        ks.pos = (word_pos % 16 / 2) as usize;
        Some(ks)
    }

    /// The 32-bit word position of the next unread word (`rand_chacha`'s `set_word_pos` resumes there).
    pub(crate) fn word_pos(&self) -> u128 {
        u128::from(self.counter) * 16 - 2 * (BATCH_WORDS - self.pos) as u128
    }

    /// Makes the next [`BATCH_BLOCKS`] blocks.
    fn refill(&mut self) {
        match self.kernel {
            Kernel::Scalar => {
                for (b, out) in self.buf.chunks_exact_mut(8 * LANES).enumerate() {
                    blocks4(
                        &self.state,
                        self.counter.wrapping_add((LANES * b) as u64),
                        out,
                    );
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                for (b, out) in self.buf.chunks_exact_mut(64).enumerate() {
                    avx2::blocks8(&self.state, self.counter.wrapping_add(8 * b as u64), out);
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => avx512::blocks16(&self.state, self.counter, &mut self.buf),
        }
        self.counter = self.counter.wrapping_add(BATCH_BLOCKS as u64);
        self.pos = 0;
    }

    /// Fills `out` with the next keystream words.
    pub(crate) fn fill(&mut self, out: &mut [u64]) {
        let mut k = 0;
        while k < out.len() {
            if self.pos == BATCH_WORDS {
                self.refill();
            }
            let take = (BATCH_WORDS - self.pos).min(out.len() - k);
            out[k..k + take].copy_from_slice(&self.buf[self.pos..self.pos + take]);
            self.pos += take;
            k += take;
        }
    }

    /// Fills `out` with uniform residues mod q by rejection, word by word as `Csprng::uniform_mod`: the
    /// top `bits(q)` bits of the next word, kept if < q. Branch-free: every draw is stored at the next
    /// free slot and the slot advances only on acceptance (AVX-512F: 8 draws at a time, the accepted
    /// ones packed by `vpcompressq`).
    pub(crate) fn fill_uniform(&mut self, modulus: &Modulus, out: &mut [u64]) {
        let (q, shift) = (modulus.value(), 64 - modulus.bits());
        let n = out.len();
        let mut k = 0;
        while k < n {
            if self.pos == BATCH_WORDS {
                self.refill();
            }
            #[cfg(target_arch = "x86_64")]
            if self.kernel == Kernel::Avx512 {
                let (used, kept) = avx512::reject(&self.buf[self.pos..], shift, q, &mut out[k..]);
                self.pos += used;
                k += kept;
                if self.pos == BATCH_WORDS {
                    continue;
                }
            }
            // At most n - k draws are taken, so k < n at every store.
            let take = (BATCH_WORDS - self.pos).min(n - k);
            for &w in &self.buf[self.pos..self.pos + take] {
                let x = w >> shift;
                out[k] = x;
                k += usize::from(x < q);
            }
            self.pos += take;
        }
    }
}

/// Lanes of the portable kernel: four blocks side by side, which LLVM maps onto 128-bit vectors where
/// the target has them (SSE2 on every x86_64).
const LANES: usize = 4;

type Lanes = [u32; LANES];

#[inline(always)]
fn add(a: Lanes, b: Lanes) -> Lanes {
    core::array::from_fn(|l| a[l].wrapping_add(b[l]))
}

#[inline(always)]
fn xor_rol(a: Lanes, b: Lanes, r: u32) -> Lanes {
    core::array::from_fn(|l| (a[l] ^ b[l]).rotate_left(r))
}

/// The 20 rounds of ChaCha20: 10 times the four column then the four diagonal quarter rounds, each
/// given to `qr` as the indices of its words (a, b, c, d).
#[inline(always)]
fn rounds(mut qr: impl FnMut([usize; 4])) {
    for _ in 0..10 {
        qr([0, 4, 8, 12]);
        qr([1, 5, 9, 13]);
        qr([2, 6, 10, 14]);
        qr([3, 7, 11, 15]);
        qr([0, 5, 10, 15]);
        qr([1, 6, 11, 12]);
        qr([2, 7, 8, 13]);
        qr([3, 4, 9, 14]);
    }
}

/// The ChaCha quarter round on words a, b, c, d of `x`, lane-wise.
#[inline(always)]
fn quarter(x: &mut [Lanes; 16], [a, b, c, d]: [usize; 4]) {
    x[a] = add(x[a], x[b]);
    x[d] = xor_rol(x[d], x[a], 16);
    x[c] = add(x[c], x[d]);
    x[b] = xor_rol(x[b], x[c], 12);
    x[a] = add(x[a], x[b]);
    x[d] = xor_rol(x[d], x[a], 8);
    x[c] = add(x[c], x[d]);
    x[b] = xor_rol(x[b], x[c], 7);
}

/// The portable reference: blocks `counter .. counter + 4` of the keystream of `state` (counter words
/// ignored) into `out[..32]` as u64 words, stream order.
fn blocks4(state: &[u32; 16], counter: u64, out: &mut [u64]) {
    let mut input: [Lanes; 16] = core::array::from_fn(|i| [state[i]; LANES]);
    (input[12], input[13]) = counters::<LANES>(counter);
    let mut x = input;
    rounds(|i| quarter(&mut x, i));
    for (b, blk) in out[..8 * LANES].chunks_exact_mut(8).enumerate() {
        for (i, o) in blk.iter_mut().enumerate() {
            let lo = x[2 * i][b].wrapping_add(input[2 * i][b]);
            let hi = x[2 * i + 1][b].wrapping_add(input[2 * i + 1][b]);
            *o = u64::from(lo) | u64::from(hi) << 32;
        }
    }
}

/// The 64-bit block counters of `L` consecutive blocks from `counter`, split into low and high
/// words (the kernels' words 12 and 13).
fn counters<const L: usize>(counter: u64) -> ([u32; L], [u32; L]) {
    let (mut lo, mut hi) = ([0u32; L], [0u32; L]);
    for (l, (a, b)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let c = counter.wrapping_add(l as u64);
        *a = c as u32;
        *b = (c >> 32) as u32;
    }
    (lo, hi)
}
