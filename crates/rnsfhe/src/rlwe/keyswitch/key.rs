//! The key-switching key (paper 000 eq. (17), in the gadget form of `super`): per digit j and
//! sub-digit b, (k0, k1) with k0 + k1 s = P g_j omega^b s' - q_I e, its generation and its parts.

use super::*;
use crate::rlwe::keys::{is_montgomery, SeedSource};
use rnsfhe_math::ring::Form;

/// e M as a Montgomery-form polynomial (its residues e M^2): the error of a Montgomery ring's key.
fn montgomery_error(e: &Poly) -> Result<Poly> {
    let mut x = e.to_montgomery()?;
    x.relabel_form(Form::Plain)?;
    Ok(x.to_montgomery()?)
}

/// A key-switching key from s' to s: per digit j and sub-digit b, (k0, k1) in NTT form over Q u P.
///
/// Montgomery rings (paper 001 sections 4.1-4.2): components are held in Montgomery form, with
/// value k0 + k1 s = P g_j omega^b s' - M e, and a uniform (its residues read in Montgomery form: the
/// value a M^-1, as uniform). The digits of
/// a Montgomery input c~ = c M are those of the residues c M, taken as plain values, so
/// sum_j d_j (k0_j + k1_j s) / P = c M s' - M e' + r, plain; read as Montgomery (relabelled), this
/// is c s' - e' + r M^-1: the key-switching error e' unchanged. These residues are the paper's evkM
/// = [(P(s'/M) + a s + e) M^2]_q up to the signs of a and e. The ModDown rounding r (special moduli
/// only) gains the factor M^-1.
#[derive(Clone, Debug)]
pub struct KeySwitchKey {
    pub(super) parts: Vec<(Poly, Poly)>,
    pub(super) seeds: Vec<[u8; 32]>,
}

impl KeySwitchKey {
    /// Keys for s' given in NTT form over Q u P:
    /// k0 = P g_j omega^b s' - q_I (a s + e), k1 = q_I a (q_I = 1 unless truncated; g_j is divisible
    /// by q_I, so k0 + k1 s = P g_j omega^b s' - q_I e). The a of each component expands from a
    /// fresh seed drawn from `rng`.
    pub fn generate(
        sw: &KeySwitcher,
        sk: &SecretKey,
        s_prime: &Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
    ) -> Result<Self> {
        let m_error = is_montgomery(sw.ring_qp());
        Self::generate_with(sw, sk, s_prime, g, rng, m_error, SeedSource::Fresh)
    }

    /// [`Self::generate`] with the error e M (`m_error`, Montgomery rings: inputs c M, paper 001
    /// section 4.2) or e (inputs c, the mixed strategy of section 4.4), and the seed of component c's
    /// a from `source` (fresh, or a common reference string).
    pub(crate) fn generate_with(
        sw: &KeySwitcher,
        sk: &SecretKey,
        s_prime: &Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
        m_error: bool,
        source: SeedSource<'_>,
    ) -> Result<Self> {
        let ctx = sw.ring_qp();
        if !Arc::ptr_eq(s_prime.context(), ctx) || s_prime.representation() != Representation::Ntt {
            return Err(Error::ContextMismatch(
                "key switching needs s' in NTT form over Q u P".into(),
            ));
        }
        let n = ctx.limb_len(Representation::Ntt);
        let p = sw.special_product();
        let mut parts = Vec::new();
        let mut seeds = Vec::new();
        for (j, r) in sw.digits.iter().enumerate() {
            let q_i: BigUint = sw
                .truncated(j)
                .iter()
                .fold(BigUint::from(1u32), |a, &i| a * ctx.moduli()[i].value());
            for b in 0..sw.subdigits[j] {
                let w = sw.layout.omega_bits.map_or(0, |w| w * b as u32);
                // P g_j omega^b modulo each limb: P omega^b on the digit's primes, 0 elsewhere.
                let f = &p << w;
                let idx = (parts.len() as u32) + 1;
                let seed = source.seed(rng, idx - 1);
                let mut a = uniform_seeded(ctx, &seed, idx)?;
                let mut e = gaussian_poly(ctx, g, rng)?;
                let mont = is_montgomery(ctx);
                if mont {
                    a.relabel_form(Form::Montgomery)?;
                    e = if m_error {
                        montgomery_error(&e)?
                    } else {
                        e.to_montgomery()?
                    };
                }
                e.to_ntt()?;
                let mut k0 = a.mul(sk.ntt_qp())?;
                k0.add_assign(&e)?;
                let mut fs = if mont && s_prime.montgomery_form() == Form::Plain {
                    s_prime.to_montgomery()?
                } else {
                    s_prime.clone()
                };
                for (i, (limb, m)) in fs
                    .residues_mut()
                    .chunks_exact_mut(n)
                    .zip(ctx.moduli())
                    .enumerate()
                {
                    let c = if r.contains(&i) { big_mod(&f, m) } else { 0 };
                    vector::mul_shoup_scalar_assign(m, limb, m.shoup(c));
                }
                if q_i != BigUint::from(1u32) {
                    for poly in [&mut k0, &mut a] {
                        for (limb, m) in poly.residues_mut().chunks_exact_mut(n).zip(ctx.moduli()) {
                            vector::mul_shoup_scalar_assign(m, limb, m.shoup(big_mod(&q_i, m)));
                        }
                    }
                }
                fs.sub_assign(&k0)?;
                reduce_product(&mut fs)?;
                let c = parts.len();
                parts.push((sw.compact(c, fs)?, sw.compact(c, a)?));
                seeds.push(seed);
            }
        }
        Ok(KeySwitchKey { parts, seeds })
    }

    /// The key components (k0, k1), NTT form over Q u P less the component's zero limbs (over
    /// [`KeySwitcher::component_ring`]: a truncated key is stored without its zero columns).
    pub fn parts(&self) -> &[(Poly, Poly)] {
        &self.parts
    }

    /// Rebuilds a key from its k0 components and the seeds of its k1 components (deserialisation):
    /// k1 of component i expands from seed i with index i + 1, times q_I when truncated.
    pub fn from_parts(sw: &KeySwitcher, k0: Vec<Poly>, seeds: Vec<[u8; 32]>) -> Result<Self> {
        if k0.len() != sw.key_components() || seeds.len() != k0.len() {
            return Err(Error::LengthMismatch {
                what: "key-switching key components",
                expected: sw.key_components(),
                got: k0.len().min(seeds.len()),
            });
        }
        let ctx = sw.ring_qp();
        let n = ctx.limb_len(Representation::Ntt);
        let mut parts = Vec::with_capacity(k0.len());
        let mut idx = 0usize;
        for (j, _) in sw.digits.iter().enumerate() {
            let q_i: BigUint = sw
                .truncated(j)
                .iter()
                .fold(BigUint::from(1u32), |a, &i| a * ctx.moduli()[i].value());
            for _ in 0..sw.subdigits[j] {
                if !sw
                    .component_ring(idx)
                    .is_some_and(|r| Arc::ptr_eq(k0[idx].context(), r))
                    || k0[idx].representation() != Representation::Ntt
                {
                    return Err(Error::ContextMismatch(
                        "key-switching key components must be in NTT form over Q u P (less their \
                         zero limbs)"
                            .into(),
                    ));
                }
                let mut a = uniform_seeded(ctx, &seeds[idx], idx as u32 + 1)?;
                let mut k0i = k0[idx].clone();
                if is_montgomery(ctx) {
                    a.relabel_form(Form::Montgomery)?;
                    k0i.relabel_form(Form::Montgomery)?;
                }
                if q_i != BigUint::from(1u32) {
                    for (limb, m) in a.residues_mut().chunks_exact_mut(n).zip(ctx.moduli()) {
                        vector::mul_shoup_scalar_assign(m, limb, m.shoup(big_mod(&q_i, m)));
                    }
                }
                parts.push((k0i, sw.compact(idx, a)?));
                idx += 1;
            }
        }
        Ok(KeySwitchKey { parts, seeds })
    }

    /// X -> X^h applied to every k1 component and, if `k0`, to every k0 component (NTT form kept;
    /// the seeds still name the k1 components before the automorphism). A Galois key is
    /// phi_{g^-1} of the key from phi_g(s) to s ([`crate::rlwe::GaloisKeys`]).
    pub(crate) fn automorphism(&self, h: u64, k0: bool) -> Result<Self> {
        let parts = self
            .parts
            .iter()
            .map(|(a, b)| {
                let a = if k0 {
                    a.automorphism(h as i64)?
                } else {
                    a.clone()
                };
                Ok((a, b.automorphism(h as i64)?))
            })
            .collect::<Result<_>>()?;
        Ok(KeySwitchKey {
            parts,
            seeds: self.seeds.clone(),
        })
    }

    /// The seeds of the k1 components (before truncation factors).
    pub fn seeds(&self) -> &[[u8; 32]] {
        &self.seeds
    }
}
