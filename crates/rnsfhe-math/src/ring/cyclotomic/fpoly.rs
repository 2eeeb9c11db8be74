//! Dense polynomials over F_t (t prime), constant coefficient first, no trailing zeros (zero = empty):
//! the schoolbook arithmetic behind the slot algebra's precomputation (not a hot path).

use crate::arith::Modulus;

pub(super) type FPoly = Vec<u64>;

pub(super) fn trim(mut a: FPoly) -> FPoly {
    while a.last() == Some(&0) {
        a.pop();
    }
    a
}

pub(super) fn from_signed(t: &Modulus, c: &[i64]) -> FPoly {
    trim(c.iter().map(|&x| t.reduce_i64(x)).collect())
}

pub(super) fn add(t: &Modulus, a: &[u64], b: &[u64]) -> FPoly {
    let mut r = vec![0u64; a.len().max(b.len())];
    for (i, x) in r.iter_mut().enumerate() {
        *x = t.add(
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
    }
    trim(r)
}

pub(super) fn sub(t: &Modulus, a: &[u64], b: &[u64]) -> FPoly {
    let mut r = vec![0u64; a.len().max(b.len())];
    for (i, x) in r.iter_mut().enumerate() {
        *x = t.sub(
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
    }
    trim(r)
}

pub(super) fn mul(t: &Modulus, a: &[u64], b: &[u64]) -> FPoly {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    if t.bits() <= 32 {
        // Products below 2^64: accumulate in u128, reduce once per coefficient.
        let mut r = vec![0u128; a.len() + b.len() - 1];
        for (i, &x) in a.iter().enumerate() {
            if x != 0 {
                for (acc, &y) in r[i..].iter_mut().zip(b) {
                    *acc += u128::from(x * y);
                }
            }
        }
        return trim(r.into_iter().map(|x| t.reduce_u128(x)).collect());
    }
    let mut r = vec![0u64; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            r[i + j] = t.mul_add(x, y, r[i + j]);
        }
    }
    trim(r)
}

/// (quotient, remainder) of a by a non-zero b.
pub(super) fn div_rem(t: &Modulus, a: &[u64], b: &[u64]) -> (FPoly, FPoly) {
    let db = b.len() - 1;
    if a.len() <= db {
        return (Vec::new(), a.to_vec());
    }
    let lead_inv = t.inv(b[db]);
    // t is prime (checked by the slot algebra) and b is trimmed, so its leading coefficient inverts.
    debug_assert!(
        lead_inv.is_ok(),
        "div_rem: leading coefficient of b not invertible"
    );
    let lead_inv = lead_inv.unwrap_or(0);
    let mut r = a.to_vec();
    let mut q = vec![0u64; a.len() - db];
    for i in (db..a.len()).rev() {
        let c = t.mul(r[i], lead_inv);
        q[i - db] = c;
        if c != 0 {
            for (j, &bj) in b.iter().enumerate() {
                r[i - db + j] = t.sub(r[i - db + j], t.mul(c, bj));
            }
        }
    }
    r.truncate(db);
    (trim(q), trim(r))
}

/// a mod b for a monic b; for t below 2^32 with lazily reduced u128 accumulators.
pub(super) fn rem(t: &Modulus, a: &[u64], b: &[u64]) -> FPoly {
    let db = b.len().saturating_sub(1);
    if t.bits() > 32 || b.last() != Some(&1) || a.len() <= db {
        return div_rem(t, a, b).1;
    }
    let neg: Vec<u64> = b[..db].iter().map(|&x| t.neg(x)).collect();
    let mut r: Vec<u128> = a.iter().map(|&x| u128::from(x)).collect();
    for i in (db..a.len()).rev() {
        let c = t.reduce_u128(r[i]);
        if c != 0 {
            for (acc, &y) in r[i - db..i].iter_mut().zip(&neg) {
                *acc += u128::from(c * y);
            }
        }
    }
    trim(r[..db].iter().map(|&x| t.reduce_u128(x)).collect())
}

/// The monic gcd.
pub(super) fn gcd(t: &Modulus, a: &[u64], b: &[u64]) -> FPoly {
    let (mut x, mut y) = (trim(a.to_vec()), trim(b.to_vec()));
    while !y.is_empty() {
        let r = rem(t, &x, &y);
        x = y;
        y = r;
    }
    monic(t, x)
}

pub(super) fn monic(t: &Modulus, a: FPoly) -> FPoly {
    match a.last() {
        Some(&l) => {
            let inv = t.inv(l);
            debug_assert!(
                inv.is_ok(),
                "monic: leading coefficient not invertible (t prime, a trimmed)"
            );
            let inv = inv.unwrap_or(0);
            a.into_iter().map(|x| t.mul(x, inv)).collect()
        }
        None => a,
    }
}

/// a^-1 mod f (extended Euclid); None when not invertible.
pub(super) fn inv_mod(t: &Modulus, a: &[u64], f: &[u64]) -> Option<FPoly> {
    let (mut r0, mut r1) = (f.to_vec(), rem(t, a, f));
    let (mut s0, mut s1): (FPoly, FPoly) = (Vec::new(), vec![1]);
    while !r1.is_empty() {
        let (q, r) = div_rem(t, &r0, &r1);
        let s = sub(t, &s0, &mul(t, &q, &s1));
        (r0, r1) = (r1, r);
        (s0, s1) = (s1, s);
    }
    if r0.len() != 1 {
        return None;
    }
    let c = t.inv(r0[0]).ok()?;
    Some(rem(
        t,
        &s0.iter().map(|&x| t.mul(x, c)).collect::<Vec<_>>(),
        f,
    ))
}

/// a^e mod f.
pub(super) fn pow_mod(t: &Modulus, a: &[u64], mut e: u128, f: &[u64]) -> FPoly {
    let mut base = rem(t, a, f);
    let mut acc = rem(t, &[1], f);
    while e > 0 {
        if e & 1 == 1 {
            acc = rem(t, &mul(t, &acc, &base), f);
        }
        base = rem(t, &mul(t, &base, &base), f);
        e >>= 1;
    }
    acc
}
