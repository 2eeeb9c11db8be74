//! Seed expansion: a 32-byte public seed expanded into uniform RNS limbs, with domain separation
//! by polynomial index and limb position (a ciphertext or key stores its uniform part as the seed).

use super::chacha::{Kernel, Keystream};
use super::csprng::{Csprng, EXPAND_STREAM};
use crate::arith::{Backend, Modulus};
use crate::{Error, Result};

/// Expands a 32-byte public seed into a uniform RNS polynomial (limb-major, `moduli.len() * n` words),
/// deterministically; equals [`uniform_from_seed_indexed`] with index 0. Lets a ciphertext or key store
/// its uniform part as the seed.
pub fn uniform_from_seed(seed: &[u8; 32], moduli: &[Modulus], n: usize) -> Vec<u64> {
    uniform_from_seed_indexed(seed, 0, moduli, n)
}

/// Seed expansion with domain separation. Limb i of polynomial `index` is drawn by rejection
/// ([`Csprng::uniform_mod`]) from ChaCha20 keyed by `seed` on stream id `2^63 | index << 32 | i`
/// (block counter from 0). Hence: limb i depends only on (seed, index, i, q_i, n), so a sub-basis
/// prefix can be regenerated alone; distinct indices give independent polynomials from one seed (e.g.
/// the digits of a key-switching key); and no expansion stream meets the stream of
/// `Csprng::from_seed(seed)`. Limb positions are taken modulo 2^32 (far above any real basis size).
pub fn uniform_from_seed_indexed(
    seed: &[u8; 32],
    index: u32,
    moduli: &[Modulus],
    n: usize,
) -> Vec<u64> {
    let positions: Vec<usize> = (0..moduli.len()).collect();
    uniform_from_seed_at(seed, index, moduli, &positions, n)
}

/// The limbs at `positions` of the expansion [`uniform_from_seed_indexed`] over a larger basis: limb
/// j is drawn on the stream of position `positions[j]` with modulus `moduli[j]`, so a sub-basis (the
/// primes of a level and the special primes) gets the same residues as the full basis has there.
/// One limb per pair (`moduli[j]`, `positions[j]`): the longer slice's extra entries are ignored.
/// The keystream comes from the multi-block ChaCha20 kernel of the `RNSFHE_BACKEND` ceiling (AVX-512F,
/// AVX2), or from `rand_chacha` under `scalar` (faster than the portable kernel, as `rand_chacha`
/// vectorises internally); the output is the same.
pub fn uniform_from_seed_at(
    seed: &[u8; 32],
    index: u32,
    moduli: &[Modulus],
    positions: &[usize],
    n: usize,
) -> Vec<u64> {
    expand_at(Kernel::current(), seed, index, moduli, positions, n)
}

/// [`uniform_from_seed_at`] on the ChaCha20 kernel of backend `b` (AVX-512F for `avx512` and
/// `avx512ifma`, AVX2; `rand_chacha` for scalar), to compare backends; the output is the same on every
/// backend. Errors with `InvalidParameters` when this CPU lacks the backend's instructions.
pub fn uniform_from_seed_at_with(
    b: Backend,
    seed: &[u8; 32],
    index: u32,
    moduli: &[Modulus],
    positions: &[usize],
    n: usize,
) -> Result<Vec<u64>> {
    let kernel = Kernel::of(b).ok_or_else(|| {
        Error::InvalidParameters(format!("backend {b} is not supported by this CPU"))
    })?;
    Ok(expand_at(kernel, seed, index, moduli, positions, n))
}

/// Limb `position` of [`uniform_from_seed_at`]'s expansion, mod `modulus`, written into `out` (its
/// length is the degree): for callers that expand one limb at a time into a buffer they reuse.
pub fn uniform_limb_from_seed(
    seed: &[u8; 32],
    index: u32,
    modulus: &Modulus,
    position: usize,
    out: &mut [u64],
) {
    let n = out.len();
    expand_into(
        Kernel::current(),
        seed,
        index,
        core::slice::from_ref(modulus),
        &[position],
        n,
        out,
    );
}

fn expand_at(
    kernel: Kernel,
    seed: &[u8; 32],
    index: u32,
    moduli: &[Modulus],
    positions: &[usize],
    n: usize,
) -> Vec<u64> {
    let mut out = vec![0u64; moduli.len().min(positions.len()) * n];
    expand_into(kernel, seed, index, moduli, positions, n, &mut out);
    out
}

/// The expansion of [`expand_at`] into `out` (`n` words per limb).
fn expand_into(
    kernel: Kernel,
    seed: &[u8; 32],
    index: u32,
    moduli: &[Modulus],
    positions: &[usize],
    n: usize,
    out: &mut [u64],
) {
    if n == 0 {
        return;
    }
    for ((limb, m), &pos) in out.chunks_exact_mut(n).zip(moduli).zip(positions) {
        let stream = (u64::from(index) << 32) | (pos as u64 & 0xffff_ffff);
        if kernel == Kernel::Scalar {
            let mut rng = Csprng::expansion(seed, stream);
            for x in limb {
                *x = rng.uniform_mod(m);
            }
        } else {
            Keystream::new(seed, EXPAND_STREAM | stream, kernel).fill_uniform(m, limb);
        }
    }
}
