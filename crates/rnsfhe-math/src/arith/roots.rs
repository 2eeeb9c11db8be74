//! Primitive roots of unity modulo a prime (for NTTs of any order dividing q - 1).

use super::{is_prime, Modulus};
use crate::{Error, Result};

/// Distinct prime factors of n, increasing, by trial division (precomputation only).
pub(crate) fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut fs = Vec::new();
    let mut d = 2u64;
    while d * d <= n {
        if n.is_multiple_of(d) {
            fs.push(d);
            while n.is_multiple_of(d) {
                n /= d;
            }
        }
        d += 1;
    }
    if n > 1 {
        fs.push(n);
    }
    fs
}

fn check(q: &Modulus, order: u64) -> Result<()> {
    if !is_prime(q.value()) {
        return Err(Error::InvalidModulus {
            modulus: q.value(),
            reason: "not prime".into(),
        });
    }
    if order == 0 || !(q.value() - 1).is_multiple_of(order) {
        return Err(Error::InvalidModulus {
            modulus: q.value(),
            reason: format!(
                "has no primitive root of unity of order {order}: q - 1 is not a multiple of it"
            ),
        });
    }
    Ok(())
}

fn is_primitive(q: &Modulus, x: u64, order: u64, factors: &[u64]) -> bool {
    q.pow(x, order) == 1 && factors.iter().all(|&p| q.pow(x, order / p) != 1)
}

/// A primitive `order`-th root of unity modulo the prime q (the first found from g^((q-1)/order) for
/// g = 2, 3, ...). Errors when q is not prime or `order` does not divide q - 1.
pub fn primitive_root(q: &Modulus, order: u64) -> Result<u64> {
    check(q, order)?;
    let factors = prime_factors(order);
    let cofactor = (q.value() - 1) / order;
    for g in 2..q.value() {
        let x = q.pow(g, cofactor);
        if is_primitive(q, x, order, &factors) {
            return Ok(x);
        }
    }
    Err(Error::InvalidModulus {
        modulus: q.value(),
        reason: format!("no root of order {order} found"),
    })
}

/// The smallest primitive `order`-th root of unity modulo q (deterministic tables, as SEAL chooses).
/// It is found among the powers of one primitive root w: w^k for k coprime to `order`.
pub fn minimal_primitive_root(q: &Modulus, order: u64) -> Result<u64> {
    let w = primitive_root(q, order)?;
    let factors = prime_factors(order);
    let coprime = |k: u64| factors.iter().all(|&p| !k.is_multiple_of(p));
    let mut best = w;
    let mut pw = w;
    for k in 2..=order {
        pw = q.mul(pw, w);
        if coprime(k) && pw < best {
            best = pw;
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_have_exact_order() {
        // 65537 - 1 = 2^16; 40961 - 1 = 2^13 * 5; 43691 is not prime, 131071 - 1 = 2 * 3 * 5 * 17 * 257.
        for (qv, orders) in [
            (65537u64, vec![2u64, 4, 16, 256, 1 << 16]),
            (40961, vec![5, 10, 1 << 13, 40960]),
            (131071, vec![3, 15, 255, 771, 131070]),
        ] {
            let q = Modulus::new(qv).unwrap();
            for order in orders {
                let w = primitive_root(&q, order).unwrap();
                let m = minimal_primitive_root(&q, order).unwrap();
                for x in [w, m] {
                    assert_eq!(q.pow(x, order), 1);
                    for p in prime_factors(order) {
                        assert_ne!(q.pow(x, order / p), 1, "q = {qv}, order = {order}");
                    }
                }
                assert!(m <= w);
                // Minimal: no smaller element has exact order `order`.
                let fs = prime_factors(order);
                assert!((1..m).all(|x| !is_primitive(&q, x, order, &fs)));
            }
        }
    }

    #[test]
    fn errors() {
        assert!(primitive_root(&Modulus::new(65537).unwrap(), 3).is_err());
        assert!(primitive_root(&Modulus::new(65536).unwrap(), 2).is_err());
        assert!(primitive_root(&Modulus::new(17).unwrap(), 0).is_err());
    }
}
