//! [`RnsBasis`]: pairwise coprime moduli q_1..q_k with their CRT constants.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};

use super::residue;
use crate::arith::{Modulus, Shoup};
use crate::{Error, Result};

/// An RNS base Q = q_1 * ... * q_k of pairwise coprime moduli (primes or not: BEHZ uses m~ = 2^16).
#[derive(Clone, Debug)]
pub struct RnsBasis {
    moduli: Vec<Modulus>,
    product: BigUint,
    /// Q / q_i.
    punctured: Vec<BigUint>,
    /// q~_i = (Q / q_i)^-1 mod q_i, with Shoup quotients.
    inv_punctured: Vec<Shoup>,
}

impl RnsBasis {
    /// Builds the base; errors when it is empty, a modulus is out of `Modulus`'s range, or two moduli
    /// share a factor (the error names the pair).
    pub fn new(moduli: &[u64]) -> Result<Self> {
        if moduli.is_empty() {
            return Err(Error::InvalidBasis(
                "an RNS base needs at least one modulus".into(),
            ));
        }
        let moduli = moduli
            .iter()
            .map(|&q| Modulus::new(q))
            .collect::<Result<Vec<_>>>()?;
        for (i, a) in moduli.iter().enumerate() {
            for (j, b) in moduli.iter().enumerate().skip(i + 1) {
                let g = a.value().gcd(&b.value());
                if g != 1 {
                    return Err(Error::InvalidBasis(format!(
                        "moduli q_{i} = {} and q_{j} = {} are not coprime (common factor {g})",
                        a.value(),
                        b.value()
                    )));
                }
            }
        }
        let product = moduli.iter().fold(BigUint::one(), |acc, q| acc * q.value());
        let punctured: Vec<BigUint> = moduli.iter().map(|q| &product / q.value()).collect();
        let inv_punctured = moduli
            .iter()
            .zip(&punctured)
            .map(|(q, p)| Ok(q.shoup(q.inv(residue(p, q))?)))
            .collect::<Result<Vec<_>>>()?;
        Ok(RnsBasis {
            moduli,
            product,
            punctured,
            inv_punctured,
        })
    }

    /// The base formed by these moduli followed by `other`'s (e.g. q u Bsk); errors as [`RnsBasis::new`].
    pub fn concat(&self, other: &RnsBasis) -> Result<RnsBasis> {
        let all: Vec<u64> = self
            .moduli
            .iter()
            .chain(&other.moduli)
            .map(|q| q.value())
            .collect();
        RnsBasis::new(&all)
    }

    /// The sub-base of the moduli in `range` (e.g. the first l moduli of a modulus chain).
    pub fn sub_basis(&self, range: std::ops::Range<usize>) -> Result<RnsBasis> {
        let values: Vec<u64> = self
            .moduli
            .get(range.clone())
            .ok_or_else(|| {
                Error::OutOfRange(format!(
                    "sub-base {range:?} of a base of {} moduli",
                    self.len()
                ))
            })?
            .iter()
            .map(|q| q.value())
            .collect();
        RnsBasis::new(&values)
    }

    /// The moduli.
    pub fn moduli(&self) -> &[Modulus] {
        &self.moduli
    }

    /// The largest modulus (a base is never empty: [`RnsBasis::new`] refuses that).
    pub fn max_modulus(&self) -> &Modulus {
        let first = &self.moduli[0];
        self.moduli
            .iter()
            .fold(first, |m, q| if q.value() > m.value() { q } else { m })
    }

    /// The number of moduli k.
    pub fn len(&self) -> usize {
        self.moduli.len()
    }

    /// Always false: a base has at least one modulus.
    pub fn is_empty(&self) -> bool {
        self.moduli.is_empty()
    }

    /// Q.
    pub fn product(&self) -> &BigUint {
        &self.product
    }

    /// Q / q_i for each i.
    pub fn punctured_products(&self) -> &[BigUint] {
        &self.punctured
    }

    /// q~_i = (Q / q_i)^-1 mod q_i for each i, as Shoup constants.
    pub fn inv_punctured_products(&self) -> &[Shoup] {
        &self.inv_punctured
    }

    fn check_len(&self, residues: &[u64]) -> Result<()> {
        if residues.len() != self.len() {
            return Err(Error::LengthMismatch {
                what: "residues",
                expected: self.len(),
                got: residues.len(),
            });
        }
        Ok(())
    }

    /// The integer in [0, Q) with these residues (exact CRT; tests and debugging). Errors on a wrong
    /// length or a residue not below its modulus.
    pub fn compose(&self, residues: &[u64]) -> Result<BigUint> {
        self.check_len(residues)?;
        let mut acc = BigUint::zero();
        for (i, ((&x, q), w)) in residues
            .iter()
            .zip(&self.moduli)
            .zip(&self.inv_punctured)
            .enumerate()
        {
            if x >= q.value() {
                return Err(Error::OutOfRange(format!(
                    "residue {x} is not below q_{i} = {}",
                    q.value()
                )));
            }
            acc += &self.punctured[i] * q.mul_shoup(x, *w);
        }
        Ok(acc % &self.product)
    }

    /// The centered integer in (-Q/2, Q/2] with these residues.
    pub fn compose_centered(&self, residues: &[u64]) -> Result<BigInt> {
        let x = self.compose(residues)?;
        let half = &self.product >> 1u32;
        Ok(if x > half {
            BigInt::from(x) - BigInt::from(self.product.clone())
        } else {
            BigInt::from(x)
        })
    }

    /// The residues of x.
    pub fn decompose(&self, x: &BigUint) -> Vec<u64> {
        self.moduli.iter().map(|q| residue(x, q)).collect()
    }

    /// The residues of a signed x.
    pub fn decompose_signed(&self, x: &BigInt) -> Vec<u64> {
        let r = self.decompose(x.magnitude());
        if x.sign() == Sign::Minus {
            r.into_iter()
                .zip(&self.moduli)
                .map(|(v, q)| q.neg(v))
                .collect()
        } else {
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crt_round_trip() {
        let b = RnsBasis::new(&[(1 << 61) - 1, 65537, 1 << 16 | 1 << 0, 3]).unwrap_err();
        assert!(matches!(b, Error::InvalidBasis(_)), "65537 repeated");
        let b =
            RnsBasis::new(&[(1 << 61) - 1, 65537, 1 << 16, 3, 1_152_921_504_606_748_673]).unwrap();
        for x in [
            BigUint::zero(),
            b.product() - 1u32,
            BigUint::from(123_456_789u64) << 100u32,
        ] {
            let x = x % b.product();
            assert_eq!(b.compose(&b.decompose(&x)).unwrap(), x);
        }
        let neg = BigInt::from(-5);
        assert_eq!(b.compose_centered(&b.decompose_signed(&neg)).unwrap(), neg);
        let half = BigInt::from(b.product().clone() >> 1u32);
        assert_eq!(
            b.compose_centered(&b.decompose_signed(&half)).unwrap(),
            half
        );
    }

    #[test]
    fn bad_bases() {
        assert!(matches!(RnsBasis::new(&[]), Err(Error::InvalidBasis(_))));
        let e = RnsBasis::new(&[6, 35, 9]).unwrap_err();
        assert!(e.to_string().contains("q_0 = 6 and q_2 = 9"), "{e}");
        assert!(matches!(
            RnsBasis::new(&[1]),
            Err(Error::InvalidModulus { .. })
        ));
        let b = RnsBasis::new(&[7, 11]).unwrap();
        assert!(matches!(b.compose(&[1]), Err(Error::LengthMismatch { .. })));
        assert!(matches!(b.compose(&[7, 0]), Err(Error::OutOfRange(_))));
        assert!(b.sub_basis(1..3).is_err());
        assert_eq!(b.sub_basis(1..2).unwrap().product(), &BigUint::from(11u32));
        assert!(b.concat(&RnsBasis::new(&[13, 77]).unwrap()).is_err());
    }

    #[test]
    fn max_modulus_is_the_largest() {
        for (moduli, max) in [
            (vec![7u64], 7u64),
            (vec![7, 13, 11], 13),
            (vec![(1 << 61) - 1, 3], (1 << 61) - 1),
        ] {
            assert_eq!(RnsBasis::new(&moduli).unwrap().max_modulus().value(), max);
        }
    }
}
