//! HPR-FV relinearisation and Galois keys (Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1; Remark 5 per digit) and the key
//! switching on digits they drive.

use std::collections::BTreeMap;

use rnsfhe_math::arith::vector;
use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;

use super::{Digits, HprContext, HprSecretKey};
use crate::rlwe::KeyId;
use crate::{Error, Result};

/// How relinearisation decomposes c_2 (Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relinearization {
    /// Single-digit r_{i,j} = [c_{2,i} p_j / p]_{p_j} against keys of (p / p_j) p^i s^2 (eq. (18));
    /// extra noise (19): n d B_err (p_1 + ... + p_k).
    PerResidue,
    /// Remark 5: whole digits r_i = c_{2,i} against keys of p^i s^2; k times fewer key products but
    /// noise about n d B_err k p / 2 (use once the noise already fills a digit).
    PerDigit,
}

/// A key-switching key: RLWE samples masking p^i (p/p_j) s' (or p^i s' per digit), each d digits
/// in NTT form, indexed i k + j (or i).
#[derive(Clone, Debug)]
pub(super) struct SwitchKey {
    b: Vec<Digits>,
    a: Vec<Digits>,
    mode: Relinearization,
}

/// The relinearisation key of a key pair (section 4.1).
#[derive(Clone, Debug)]
pub struct HprRelinKey {
    pub(super) key: SwitchKey,
    id: KeyId,
}

impl SwitchKey {
    fn pairs(&self) -> Vec<(&Digits, &Digits)> {
        self.b.iter().zip(&self.a).collect()
    }

    fn from_pairs(pairs: Vec<(Digits, Digits)>, mode: Relinearization) -> Self {
        let (b, a) = pairs.into_iter().unzip();
        SwitchKey { b, a, mode }
    }
}

impl HprRelinKey {
    pub(crate) fn samples(&self) -> Vec<(&Digits, &Digits)> {
        self.key.pairs()
    }

    pub(crate) fn from_samples(
        pairs: Vec<(Digits, Digits)>,
        mode: Relinearization,
        id: KeyId,
    ) -> Self {
        HprRelinKey {
            key: SwitchKey::from_pairs(pairs, mode),
            id,
        }
    }

    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }

    /// The decomposition this key was made for.
    pub fn mode(&self) -> Relinearization {
        self.key.mode
    }
}

/// Galois keys for automorphisms X -> X^g (rotations of batched slots).
#[derive(Clone, Debug)]
pub struct HprGaloisKeys {
    pub(super) keys: BTreeMap<u64, SwitchKey>,
    id: KeyId,
}

impl HprGaloisKeys {
    pub(crate) fn samples(&self) -> Vec<(u64, Vec<(&Digits, &Digits)>)> {
        self.keys.iter().map(|(&g, k)| (g, k.pairs())).collect()
    }

    pub(crate) fn from_samples(keys: Vec<(u64, Vec<(Digits, Digits)>)>, id: KeyId) -> Self {
        let keys = keys
            .into_iter()
            .map(|(g, p)| (g, SwitchKey::from_pairs(p, Relinearization::PerResidue)))
            .collect();
        HprGaloisKeys { keys, id }
    }

    /// The identity of the key pair.
    pub fn id(&self) -> KeyId {
        self.id
    }
}

impl HprContext {
    fn switch_key(
        &self,
        sk: &HprSecretKey,
        target: &Poly,
        mode: Relinearization,
        rng: &mut Csprng,
    ) -> Result<SwitchKey> {
        let (d, n) = (self.params.digits(), self.params.degree());
        let p = self.basis.p();
        let mut b = Vec::new();
        let mut a = Vec::new();
        for i in 0..d {
            let factors: Vec<Option<&num_bigint::BigUint>> = match mode {
                Relinearization::PerResidue => p.punctured_products().iter().map(Some).collect(),
                Relinearization::PerDigit => vec![None],
            };
            for f in factors {
                let mut m = self.zero_digits(Representation::Coefficient);
                let mut x = target.clone();
                if let Some(f) = f {
                    let res = self.basis.residues_of(&num_bigint::BigInt::from(f.clone()));
                    for ((limb, q), c) in x
                        .residues_mut()
                        .chunks_exact_mut(n)
                        .zip(self.basis.full().moduli())
                        .zip(res)
                    {
                        vector::mul_shoup_scalar_assign(q, limb, q.shoup(c));
                    }
                }
                m[i] = x;
                let (mut bi, mut ai) = self.rlwe_sample(sk, Some(&m), rng)?;
                bi.iter_mut()
                    .chain(ai.iter_mut())
                    .try_for_each(super::depth::fwd)?;
                b.push(bi);
                a.push(ai);
            }
        }
        Ok(SwitchKey { b, a, mode })
    }

    /// The relinearisation key: masks of p^i (p/p_j) s^2 (or p^i s^2 for [`Relinearization::PerDigit`]).
    pub fn relin_key(
        &self,
        sk: &HprSecretKey,
        mode: Relinearization,
        rng: &mut Csprng,
    ) -> Result<HprRelinKey> {
        let mut s2 = sk.s.mul(&sk.s)?;
        super::depth::inv(&mut s2)?;
        Ok(HprRelinKey {
            key: self.switch_key(sk, &s2, mode, rng)?,
            id: sk.id(),
        })
    }

    /// Galois keys for the elements `gs` (odd, taken mod 2n), per-residue decomposition.
    pub fn galois_keys(
        &self,
        sk: &HprSecretKey,
        gs: &[u64],
        rng: &mut Csprng,
    ) -> Result<HprGaloisKeys> {
        let two_n = 2 * self.params.degree() as u64;
        let mut s = sk.s.clone();
        super::depth::inv(&mut s)?;
        let mut keys = BTreeMap::new();
        for &g in gs {
            let g = g % two_n;
            if keys.contains_key(&g) {
                continue;
            }
            let sg = s.automorphism(g as i64)?;
            keys.insert(
                g,
                self.switch_key(sk, &sg, Relinearization::PerResidue, rng)?,
            );
        }
        Ok(HprGaloisKeys { keys, id: sk.id() })
    }

    /// acc0 += <D(c), key.b>, acc1 += <D(c), key.a> (NTT form), for c carried in coefficient form:
    /// the inner products of section 4.1 (Step 5 of Fig. 1).
    pub(super) fn key_switch_acc(
        &self,
        c: &[Poly],
        key: &SwitchKey,
        acc0: &mut [Poly],
        acc1: &mut [Poly],
    ) -> Result<()> {
        let (n, k, w) = (
            self.params.degree(),
            self.basis.k(),
            self.basis.full().len(),
        );
        // All decomposition digits in NTT form first (d k of them, or d), index i per + j as the key.
        let mut rs: Vec<Poly> = Vec::new();
        for ci in c {
            match key.mode {
                Relinearization::PerResidue => {
                    let mut r = rnsfhe_math::pool::Buffer::zeroed(k * w * n);
                    self.basis.decompose(&ci.residues()[..k * n], &mut r)?;
                    for x in r.chunks_exact(w * n) {
                        let mut p = Poly::from_residues(
                            &self.ring,
                            rnsfhe_math::pool::copied(x),
                            Representation::Coefficient,
                        )?;
                        super::depth::fwd(&mut p)?;
                        rs.push(p);
                    }
                }
                Relinearization::PerDigit => {
                    let mut p = ci.clone();
                    super::depth::fwd(&mut p)?;
                    rs.push(p);
                }
            }
        }
        let d = self.params.digits();
        let foreign = key
            .b
            .iter()
            .chain(&key.a)
            .any(|s| s.len() != d || s.iter().any(|x| x.context().id() != self.ring.id()));
        if foreign || key.a.len() != key.b.len() {
            return Err(Error::ContextMismatch(
                "the key belongs to another HPR parameter set".into(),
            ));
        }
        if rs.len() != key.b.len() {
            return Err(Error::Internal(format!(
                "{} decomposition digits for {} key samples",
                rs.len(),
                key.b.len()
            )));
        }
        // Output digit l of acc0 (acc1) sums r_t times digit l of b_t (a_t) over the samples t.
        let terms: Vec<Vec<(&Poly, &Poly)>> = [&key.b, &key.a]
            .iter()
            .flat_map(|keys| (0..d).map(|l| rs.iter().zip(keys.iter().map(|s| &s[l])).collect()))
            .collect();
        let mut outs: Vec<&mut Poly> = acc0.iter_mut().chain(acc1.iter_mut()).collect();
        self.sums_of_products(&mut outs, &terms, true);
        Ok(())
    }
}
