//! Generation of key-switching keys (Bajard et al. (SAC 2016) eq. (17)): per digit j and sub-digit b,
//! k0 = P g_j omega^b s' - q_I (a s + e) and k1 = q_I a, for fresh or common-reference a.
//!
//! On a plain ring, k0 is made in one pass per component: the error is drawn negated (-e, the same
//! draws), so k0 = a (-s) + (-e) is one multiply-add with -s computed once per key, and P g_j
//! omega^b s' is added on the digit's primes only (it is 0 on the others). Every residue is the
//! canonical one of the same value, so the keys are bit-identical to the plain formula's.

use std::borrow::Cow;

use super::key::scale_by;
use super::*;
use crate::rlwe::keys::{is_montgomery, uniform_seeded_at, SeedSource};
use crate::rlwe::{Crs, Domain};
use rnsfhe_math::ring::Form;

/// e M as a Montgomery-form polynomial (its residues e M^2): the error of a Montgomery ring's key.
fn montgomery_error(e: &Poly) -> Result<Poly> {
    let mut x = e.to_montgomery()?;
    x.relabel_form(Form::Plain)?;
    Ok(x.to_montgomery()?)
}

/// The error distribution and the rng that draws from it.
type Errors<'r> = (&'r DiscreteGaussian, &'r mut Csprng);
/// A component's digit: its primes (limb indices), P g_j omega^b, and q_I when truncated.
type Digit<'r> = (&'r Range<usize>, &'r BigUint, Option<&'r BigUint>);

/// What is fixed for every component of one key: the work ring and its limbs, s and -s, s', P.
struct KeyPlan<'a> {
    sw: &'a KeySwitcher,
    ctx: &'a Arc<RingContext>,
    limbs: Vec<usize>,
    s: Cow<'a, Poly>,
    /// -s (plain rings: the multiplier of a in k0 = a (-s) - e).
    s_neg: Option<Poly>,
    s_prime: Cow<'a, Poly>,
    p: BigUint,
    mont: bool,
    opts: KeyOptions<'a>,
}

impl Drop for KeyPlan<'_> {
    fn drop(&mut self) {
        if let Some(s) = &mut self.s_neg {
            zeroize::Zeroize::zeroize(s.residues_mut());
        }
    }
}

impl<'a> KeyPlan<'a> {
    fn new(
        sw: &'a KeySwitcher,
        s: &'a Poly,
        s_prime: &'a Poly,
        opts: KeyOptions<'a>,
    ) -> Result<Self> {
        let (ctx, limbs) = sw.work_ring(opts.level)?;
        let s_prime = sw.restrict_qp(s_prime, opts.level)?;
        let s = sw.restrict_qp(s, opts.level)?;
        if s_prime.representation() != Representation::Ntt
            || s.representation() != Representation::Ntt
        {
            return Err(Error::ContextMismatch(
                "key switching needs s and s' in NTT form over Q u P".into(),
            ));
        }
        let mont = is_montgomery(ctx);
        // The one-pass k0 needs products that are reduced as they are made: power-of-two rings
        // only (a general Phi_m ring's NTT product is reduced modulo Phi_m afterwards).
        let one_pass = !mont && ctx.kind() == RingKind::PowerOfTwo;
        Ok(KeyPlan {
            sw,
            ctx,
            limbs,
            s_neg: one_pass.then(|| s.neg()),
            s,
            s_prime,
            p: sw.special_product(),
            mont,
            opts,
        })
    }

    /// Calls `f(component, a, k0, q_I)` for every component of the key in order, with its seed;
    /// a is borrowed from an expanded source (else expanded here), before any q_I or Montgomery
    /// label. The rng gives each component's seed (fresh source), then its error.
    fn for_each(
        &self,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
        mut f: impl FnMut(usize, [u8; 32], Cow<'a, Poly>, Poly, Option<&BigUint>) -> Result<()>,
    ) -> Result<()> {
        let (sw, level) = (self.sw, self.opts.level);
        let mut c = 0usize;
        for (j, r) in sw
            .digits
            .iter()
            .enumerate()
            .filter(|(_, r)| r.start <= level)
        {
            let q_i = sw.truncation_factor(j);
            for b in 0..sw.subdigits[j] {
                let w = sw.layout.omega_bits.map_or(0, |w| w * b as u32);
                // P g_j omega^b modulo each limb: P omega^b on the digit's primes, 0 elsewhere.
                let fac = &self.p << w;
                let seed = self.opts.source.seed(rng, c as u32);
                let a = self.uniform(&seed, c as u32)?;
                let digit = (r, &fac, q_i.as_ref());
                let k0 = if self.s_neg.is_some() {
                    self.k0_plain(&a, (g, &mut *rng), digit)?
                } else {
                    self.k0_general(&a, (g, &mut *rng), digit)?
                };
                f(c, seed, a, k0, q_i.as_ref())?;
                c += 1;
            }
        }
        Ok(())
    }

    /// Component `c`'s a: the source's expansion, borrowed when already expanded.
    fn uniform(&self, seed: &[u8; 32], c: u32) -> Result<Cow<'a, Poly>> {
        if let SeedSource::Expanded(.., polys) = self.opts.source {
            if let Some(a) = polys.get(c as usize) {
                if Arc::ptr_eq(a.context(), self.ctx) {
                    return Ok(Cow::Borrowed(a));
                }
            }
        }
        Ok(Cow::Owned(self.opts.source.uniform_at(
            self.ctx,
            seed,
            c,
            &self.limbs,
        )?))
    }

    /// k0 = q_I (a (-s) - e) + P g_j omega^b s' on a plain ring (the module doc).
    fn k0_plain(&self, a: &Poly, err: Errors<'_>, digit: Digit<'_>) -> Result<Poly> {
        let ((g, rng), (r, fac, q_i)) = (err, digit);
        let s_neg = self
            .s_neg
            .as_ref()
            .ok_or_else(|| Error::Internal("no -s on a plain ring".into()))?;
        let mut e = g.sample(rng, self.ctx.degree());
        e.iter_mut().for_each(|x| *x = -*x);
        let mut k0 = Poly::from_signed(self.ctx, &e)?;
        k0.to_ntt()?;
        k0.mul_add_assign(a, s_neg)?;
        if let Some(q_i) = q_i {
            scale_by(&mut k0, q_i);
        }
        let n = self.ctx.limb_len(Representation::Ntt);
        let mut fs = Vec::new();
        for ((i, m), &limb) in self.ctx.moduli().iter().enumerate().zip(&self.limbs) {
            if !r.contains(&limb) {
                continue;
            }
            fs.clear();
            fs.extend_from_slice(&self.s_prime.residues()[i * n..(i + 1) * n]);
            vector::mul_shoup_scalar_assign(m, &mut fs, m.shoup(big_mod(fac, m)));
            vector::add_assign(m, &mut k0.residues_mut()[i * n..(i + 1) * n], &fs);
        }
        Ok(k0)
    }

    /// k0 on a general Phi_m ring (Bajard et al. (SAC 2017)): the product reduced modulo Phi_m at the end; on a
    /// Montgomery ring (sections 4.1-4.2) a read as Montgomery and the error e M (or e).
    fn k0_general(&self, a: &Poly, err: Errors<'_>, digit: Digit<'_>) -> Result<Poly> {
        let ((g, rng), (r, fac, q_i)) = (err, digit);
        let n = self.ctx.limb_len(Representation::Ntt);
        let mut a = a.clone();
        let mut e = gaussian_poly(self.ctx, g, rng)?;
        if self.mont {
            a.relabel_form(Form::Montgomery)?;
            e = if self.opts.m_error {
                montgomery_error(&e)?
            } else {
                e.to_montgomery()?
            };
        }
        e.to_ntt()?;
        let mut k0 = a.mul(&self.s)?;
        k0.add_assign(&e)?;
        let mut fs = if self.mont && self.s_prime.montgomery_form() == Form::Plain {
            self.s_prime.to_montgomery()?
        } else {
            Poly::clone(&self.s_prime)
        };
        for ((limb, m), &i) in fs
            .residues_mut()
            .chunks_exact_mut(n)
            .zip(self.ctx.moduli())
            .zip(&self.limbs)
        {
            let c = if r.contains(&i) { big_mod(fac, m) } else { 0 };
            vector::mul_shoup_scalar_assign(m, limb, m.shoup(c));
        }
        if let Some(q_i) = q_i {
            scale_by(&mut k0, q_i);
        }
        fs.sub_assign(&k0)?;
        reduce_product(&mut fs)?;
        Ok(fs)
    }
}

impl KeySwitchKey {
    /// Keys for s' given in NTT form over Q u P, at the top level:
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
        Self::generate_at(sw, sk, s_prime, g, rng, sw.top_level())
    }

    /// [`Self::generate`] at `level`: only the limbs of Q_level u P and the digits that meet
    /// q_0..q_level are computed (s' over Q u P or over Q_level u P). With the same rng, the
    /// components are those of the top-level key restricted to these limbs, bit for bit.
    pub fn generate_at(
        sw: &KeySwitcher,
        sk: &SecretKey,
        s_prime: &Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
        level: usize,
    ) -> Result<Self> {
        sk.check_exposure(
            crate::rlwe::keys::log2_modulus(sw.key_ring(0, level)?),
            "a key-switching key",
        )?;
        let opts = KeyOptions::of(sw, SeedSource::Fresh, level);
        Self::generate_with(sw, sk.ntt_qp(), s_prime, g, rng, opts)
    }

    /// [`Self::generate_at`] for the secret s (NTT form over Q u P or over the level's ring; the
    /// caller checks its exposure) with the error, seed source and level of `opts`.
    pub(crate) fn generate_with(
        sw: &KeySwitcher,
        s: &Poly,
        s_prime: &Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
        opts: KeyOptions<'_>,
    ) -> Result<Self> {
        let mut parts = Vec::new();
        let mut seeds = Vec::new();
        Self::components_with(sw, s, s_prime, g, rng, opts, |seed, k0, k1| {
            parts.push((k0, k1.into_owned()));
            seeds.push(seed);
            Ok(())
        })?;
        Ok(KeySwitchKey::full(sw, parts, seeds, opts.level))
    }

    /// The components of [`Self::generate_with`]'s key in order, the same bits, given to `f` as
    /// (seed, k0, k1) without keeping them: k1 is borrowed when it is the source's expanded a as
    /// it is (a multiparty share, whose a come from the common reference string, copies none).
    pub(crate) fn components_with<'a>(
        sw: &'a KeySwitcher,
        s: &'a Poly,
        s_prime: &'a Poly,
        g: &DiscreteGaussian,
        rng: &mut Csprng,
        opts: KeyOptions<'a>,
        mut f: impl FnMut([u8; 32], Poly, Cow<'a, Poly>) -> Result<()>,
    ) -> Result<()> {
        let plan = KeyPlan::new(sw, s, s_prime, opts)?;
        let (level, mont) = (opts.level, plan.mont);
        plan.for_each(g, rng, |c, seed, a, k0, q_i| {
            let k1 = if mont || q_i.is_some() {
                let mut a = a.into_owned();
                if mont {
                    a.relabel_form(Form::Montgomery)?;
                }
                if let Some(q_i) = q_i {
                    scale_by(&mut a, q_i);
                }
                Cow::Owned(sw.compact(c, level, a)?)
            } else if Arc::ptr_eq(sw.key_ring(c, level)?, a.context()) {
                a
            } else {
                Cow::Owned(sw.compact(c, level, a.into_owned())?)
            };
            f(seed, sw.compact(c, level, k0)?, k1)
        })
    }

    /// The uniform polynomials a of every component of a key at `level` under `crs` (the k1 of
    /// [`Self::generate_with`] before any compaction), in order: what [`SeedSource::Expanded`]
    /// carries.
    pub(crate) fn crs_uniforms(
        sw: &KeySwitcher,
        crs: &Crs,
        fingerprint: u64,
        domain: Domain,
        level: usize,
    ) -> Result<Vec<Poly>> {
        let (ctx, limbs) = sw.work_ring(level)?;
        (0..sw.key_components_at(level) as u32)
            .map(|c| uniform_seeded_at(ctx, &crs.seed(fingerprint, domain, c), c + 1, &limbs))
            .collect()
    }
}
