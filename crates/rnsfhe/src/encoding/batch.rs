//! The BFV batch encoder: n slots of Z_t packed into one plaintext of `Z_t[X]/(X^n + 1)`.
//!
//! The slots are the evaluations of the plaintext at the primitive 2n-th roots psi^e (e odd), which the
//! CRT makes a ring isomorphism `Z_t[X]/(X^n + 1)` = Z_t^n. They form a 2 x (n/2) matrix as in SEAL's
//! `BatchEncoder` and OpenFHE's packed encoding: row 0, slot i holds A(psi^(3^i)), row 1, slot i holds
//! A(psi^(-3^i)). Then X -> X^(3^s) rotates both rows left by s and X -> X^(2n-1) swaps the rows.

use rnsfhe_math::arith::{is_prime, Modulus};
use rnsfhe_math::ntt::{NttTable, MAX_NTT_SIZE};

use crate::{Error, Result};

/// Packs n values of Z_t into a plaintext polynomial of `Z_t[X]/(X^n + 1)`, t prime, t = 1 mod 2n.
///
/// Slot index k in [0, n/2) is row 0, column k; k in [n/2, n) is row 1, column k - n/2. Products of
/// plaintexts are slot-wise products; [`BatchEncoder::galois_element_for_rotation`] and
/// [`BatchEncoder::galois_element_for_row_swap`] give the automorphisms that move slots.
#[derive(Clone, Debug)]
pub struct BatchEncoder {
    n: usize,
    t: Modulus,
    ntt: NttTable,
    /// `index_map[k]`: the position in the NTT output order that holds slot k.
    index_map: Vec<usize>,
}

fn bit_reverse(i: usize, log_n: u32) -> usize {
    if log_n == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - log_n)
    }
}

impl BatchEncoder {
    /// An encoder for degree n (a power of two in 2..=2^17) and plaintext modulus t.
    ///
    /// Errors: `InvalidDegree` for a bad n; `InvalidParameters` when t is not a prime = 1 mod 2n (the
    /// message names the fix), `InvalidModulus` when t >= 2^62.
    pub fn new(n: usize, t: u64) -> Result<Self> {
        if !n.is_power_of_two() || !(2..=MAX_NTT_SIZE).contains(&n) {
            return Err(Error::InvalidDegree {
                degree: n,
                reason: format!("batching needs n a power of two in 2..={MAX_NTT_SIZE}"),
            });
        }
        let two_n = 2 * n as u64;
        if !is_prime(t) {
            return Err(Error::InvalidParameters(format!(
                "batching needs a prime t = 1 mod 2n = {two_n}; t = {t} is not prime \
                 (pick one with rnsfhe_math::arith::ntt_primes(bits, {two_n}, 1, &[]), e.g. 65537 \
                 for n <= 32768)"
            )));
        }
        if t % two_n != 1 {
            return Err(Error::InvalidParameters(format!(
                "batching needs a prime t = 1 mod 2n = {two_n}; t = {t} is {} mod {two_n} \
                 (pick one with rnsfhe_math::arith::ntt_primes(bits, {two_n}, 1, &[]))",
                t % two_n
            )));
        }
        let t = Modulus::new(t)?;
        let ntt = NttTable::new(t, n)?;
        Ok(BatchEncoder {
            n,
            t,
            ntt,
            index_map: index_map(n),
        })
    }

    /// The ring degree n.
    pub fn degree(&self) -> usize {
        self.n
    }

    /// The number of slots, n (two rows of n/2).
    pub fn slots(&self) -> usize {
        self.n
    }

    /// The length n/2 of one row.
    pub fn row_size(&self) -> usize {
        self.n / 2
    }

    /// The plaintext modulus t.
    pub fn plain_modulus(&self) -> u64 {
        self.t.value()
    }

    /// Encodes up to n slot values, each in [0, t) (missing slots are zero), into the n coefficients of
    /// the plaintext, in [0, t). Errors when there are more than n values or a value is >= t.
    pub fn encode(&self, values: &[u64]) -> Result<Vec<u64>> {
        self.check_count(values.len())?;
        let t = self.t.value();
        if let Some((i, v)) = values.iter().enumerate().find(|(_, &v)| v >= t) {
            return Err(Error::OutOfRange(format!(
                "slot value {v} at index {i} is not below the plaintext modulus t = {t}; reduce it \
                 mod t or use encode_signed"
            )));
        }
        self.encode_reduced(values.iter().copied())
    }

    /// Encodes up to n signed slot values with |v| < t (reduced mod t; normally in
    /// [-(t-1)/2, (t-1)/2]) into n coefficients in [0, t). Errors when there are more than n values or
    /// some |v| >= t.
    pub fn encode_signed(&self, values: &[i64]) -> Result<Vec<u64>> {
        self.check_count(values.len())?;
        let t = self.t.value();
        if let Some((i, v)) = values
            .iter()
            .enumerate()
            .find(|(_, &v)| v.unsigned_abs() >= t)
        {
            return Err(Error::OutOfRange(format!(
                "slot value {v} at index {i} has |v| >= the plaintext modulus t = {t}"
            )));
        }
        self.encode_reduced(values.iter().map(|&v| self.t.reduce_i64(v)))
    }

    /// Decodes n plaintext coefficients in [0, t) into the n slot values in [0, t). Errors when
    /// `coeffs.len() != n` or a coefficient is >= t.
    pub fn decode(&self, coeffs: &[u64]) -> Result<Vec<u64>> {
        if coeffs.len() != self.n {
            return Err(Error::LengthMismatch {
                what: "BatchEncoder::decode (plaintext coefficients)",
                expected: self.n,
                got: coeffs.len(),
            });
        }
        let t = self.t.value();
        if let Some((i, c)) = coeffs.iter().enumerate().find(|(_, &c)| c >= t) {
            return Err(Error::OutOfRange(format!(
                "plaintext coefficient {c} at index {i} is not below t = {t}"
            )));
        }
        let mut a = coeffs.to_vec();
        self.ntt.forward(&mut a)?;
        Ok(self.index_map.iter().map(|&j| a[j]).collect())
    }

    /// Decodes as [`BatchEncoder::decode`], each slot centered in (-t/2, t/2]. Same errors.
    pub fn decode_signed(&self, coeffs: &[u64]) -> Result<Vec<i64>> {
        Ok(self
            .decode(coeffs)?
            .into_iter()
            .map(|v| self.t.center(v))
            .collect())
    }

    /// The Galois element 3^step mod 2n whose automorphism X -> X^g rotates both rows left by `step`
    /// (negative: right), cyclically within n/2 columns. Step 0 (or any multiple of n/2) gives 1.
    pub fn galois_element_for_rotation(&self, step: i64) -> u64 {
        rotation_element(self.n, step)
    }

    /// The Galois element 2n - 1 whose automorphism X -> X^(-1) swaps the two rows.
    pub fn galois_element_for_row_swap(&self) -> u64 {
        row_swap_element(self.n)
    }

    fn check_count(&self, len: usize) -> Result<()> {
        if len > self.n {
            return Err(Error::OutOfRange(format!(
                "{len} values do not fit the {} slots of degree n = {}",
                self.n, self.n
            )));
        }
        Ok(())
    }

    /// Encodes values already in [0, t); missing ones are zero.
    fn encode_reduced(&self, values: impl Iterator<Item = u64>) -> Result<Vec<u64>> {
        let mut a = vec![0u64; self.n];
        for (&j, v) in self.index_map.iter().zip(values) {
            a[j] = v;
        }
        self.ntt.inverse(&mut a)?;
        Ok(a)
    }
}

/// Slot k -> NTT position. The NTT puts A(psi^(2 bitrev(j) + 1)) at position j, so the slot evaluated at
/// psi^e (e odd) sits at j = bitrev((e - 1) / 2). Row 0, column i takes e = 3^i; row 1 takes -3^i.
fn index_map(n: usize) -> Vec<usize> {
    let log_n = n.trailing_zeros();
    let two_n = 2 * n;
    let half = n / 2;
    let mut map = vec![0usize; n];
    let mut e = 1usize;
    for i in 0..half {
        map[i] = bit_reverse((e - 1) / 2, log_n);
        map[half + i] = bit_reverse((two_n - e - 1) / 2, log_n);
        e = e * 3 % two_n;
    }
    map
}

/// 3^step mod 2n: the Galois element that rotates both rows of the 2 x n/2 matrix left by `step`
/// (negative: right). 3 has order n/2 mod 2n (n >= 4), so 3^-s = 3^(n/2 - s).
pub(crate) fn rotation_element(n: usize, step: i64) -> u64 {
    let two_n = 2 * n as u64;
    let e = step.rem_euclid((n / 2).max(1) as i64) as u64;
    let mut g = 1u64;
    for _ in 0..e {
        g = g * 3 % two_n;
    }
    g
}

/// 2n - 1: the Galois element X -> X^(-1) that swaps the two rows.
pub(crate) fn row_swap_element(n: usize) -> u64 {
    2 * n as u64 - 1
}

/// The row-rotation methods of an FV or BGV context `$ctx` with ciphertext `$ct` over X^n + 1 (the
/// 2 x n/2 slot matrix of [`BatchEncoder`]): Galois elements and keys, row rotations, the row swap
/// and the sum of all slots. The context provides `params()`, `refuse_general`, `check_secret`,
/// `key_switcher()`, `fingerprint()` and `apply_galois`, and implements `crate::rlwe::KeyContext`.
macro_rules! row_rotation_methods {
    ($ctx:ty, $ct:ty) => {
        impl $ctx {
            /// The Galois element that rotates the rows left by `step` (3^step mod 2n; negative
            /// steps rotate right).
            pub fn galois_element(&self, step: i64) -> u64 {
                $crate::encoding::batch::rotation_element(self.params().degree(), step)
            }

            /// The Galois element that swaps the two rows (X -> X^(2n-1)).
            pub fn row_swap_element(&self) -> u64 {
                $crate::encoding::batch::row_swap_element(self.params().degree())
            }

            /// Galois keys for row rotations by `steps` and, if `row_swap`, for swapping the rows.
            pub fn galois_keys(
                &self,
                sk: &$crate::rlwe::SecretKey,
                steps: &[i64],
                row_swap: bool,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::GaloisKeys> {
                self.refuse_general("rotation by steps")?;
                let mut elements: Vec<u64> =
                    steps.iter().map(|&s| self.galois_element(s)).collect();
                if row_swap {
                    elements.push(self.row_swap_element());
                }
                self.galois_keys_for_elements(sk, &elements, rng)
            }

            /// The row-rotation steps that [`Self::sum_slots`] uses: 1, 2, 4, ... below n/2 (it
            /// also needs the row swap).
            pub fn sum_slots_steps(&self) -> Vec<i64> {
                let half = self.params().degree() / 2;
                (0..)
                    .map(|i| 1i64 << i)
                    .take_while(|&s| (s as usize) < half)
                    .collect()
            }

            /// Galois keys for the rotations that [`Self::sum_slots`] uses (powers of two and the
            /// swap).
            pub fn galois_keys_for_sum(
                &self,
                sk: &$crate::rlwe::SecretKey,
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::GaloisKeys> {
                self.galois_keys(sk, &self.sum_slots_steps(), true, rng)
            }

            /// Galois keys for explicit odd Galois elements g (mod 2n; general Phi_m: g in Z_m^*).
            pub fn galois_keys_for_elements(
                &self,
                sk: &$crate::rlwe::SecretKey,
                elements: &[u64],
                rng: &mut rnsfhe_math::sample::Csprng,
            ) -> $crate::Result<$crate::rlwe::GaloisKeys> {
                $crate::rlwe::KeyGenerator::new(self, rng).galois_keys(sk, elements)
            }

            /// Rotates both rows of the slot matrix left by `step` (right when negative).
            pub fn rotate_rows(
                &self,
                a: &$ct,
                step: i64,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                self.refuse_general("rotate_rows")?;
                self.apply_galois(a, self.galois_element(step), keys)
            }

            /// Swaps the two rows (rotation of the columns).
            pub fn rotate_columns(
                &self,
                a: &$ct,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                self.refuse_general("rotate_columns")?;
                self.apply_galois(a, self.row_swap_element(), keys)
            }

            /// Every slot set to the sum of all n slots (log2(n/2) row rotations and one row swap;
            /// keys from [`Self::galois_keys_for_sum`]).
            pub fn sum_slots(
                &self,
                a: &$ct,
                keys: &$crate::rlwe::GaloisKeys,
            ) -> $crate::Result<$ct> {
                $crate::rlwe::shared_ops::sum_slots(
                    self,
                    a,
                    self.params().degree(),
                    |c, step| self.rotate_rows(c, step, keys),
                    |c| self.rotate_columns(c, keys),
                )
            }
        }
    };
}
pub(crate) use row_rotation_methods;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A(x) mod t by Horner.
    fn eval(t: &Modulus, a: &[u64], x: u64) -> u64 {
        a.iter().rev().fold(0, |acc, &c| t.add(t.mul(acc, x), c))
    }

    /// The layout checked against evaluations done by hand: row 0, column i = A(psi^(3^i)), row 1,
    /// column i = A(psi^(-3^i)), psi the NTT's root.
    #[test]
    fn slots_are_evaluations_at_powers_of_three() {
        for (n, t) in [(2usize, 5u64), (4, 17), (8, 17), (16, 97), (64, 65537)] {
            let enc = BatchEncoder::new(n, t).unwrap();
            let q = Modulus::new(t).unwrap();
            let psi = enc.ntt.psi();
            let values: Vec<u64> = (0..n as u64).map(|k| (k * 7 + 3) % t).collect();
            let a = enc.encode(&values).unwrap();
            let two_n = 2 * n as u64;
            let mut e = 1u64;
            for i in 0..n / 2 {
                assert_eq!(
                    eval(&q, &a, q.pow(psi, e)),
                    values[i],
                    "n={n} row 0 col {i}"
                );
                let neg = q.pow(psi, two_n - e);
                assert_eq!(eval(&q, &a, neg), values[n / 2 + i], "n={n} row 1 col {i}");
                e = e * 3 % two_n;
            }
        }
    }

    #[test]
    fn index_map_is_a_permutation() {
        for log_n in 1..=12 {
            let n = 1usize << log_n;
            let mut m = index_map(n);
            m.sort_unstable();
            assert!(m.iter().enumerate().all(|(i, &j)| i == j), "n = {n}");
        }
    }

    #[test]
    fn galois_elements() {
        let enc = BatchEncoder::new(16, 97).unwrap();
        assert_eq!(enc.galois_element_for_rotation(0), 1);
        assert_eq!(enc.galois_element_for_rotation(1), 3);
        assert_eq!(enc.galois_element_for_rotation(2), 9);
        // 3 * 11 = 33 = 1 mod 32.
        assert_eq!(enc.galois_element_for_rotation(-1), 11);
        assert_eq!(enc.galois_element_for_rotation(8), 1);
        assert_eq!(enc.galois_element_for_row_swap(), 31);
    }
}
