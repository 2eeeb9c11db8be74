//! [`Evaluator`] for CKKS: the explicit (manual-mode) operations of [`CkksContext`], with complex
//! constants (a + b i multiplies as a - b X^(N/2), since X^(N/2) is -i in every slot of the
//! encoder's convention, `ckks/encoder.rs`).

use rnsfhe_math::arith::vector;
use rnsfhe_math::parallel;
use rnsfhe_math::pool::Buffer;
use rnsfhe_math::ring::{Poly, Representation};

use super::Evaluator;
use crate::ckks::{CkksCiphertext, CkksContext, CkksPlaintext, CkksWeights, Complex};
use crate::rlwe::{GaloisKeys, KeyId, RelinKey};
use crate::{Error, Result};

/// Integer constants are held below 2^62 (a word, as `mul_const`).
const WORD: f64 = 4.611_686_018_427_388e18;

impl CkksContext {
    /// The polynomial re - im X^(N/2) (the constant re + im i in every slot) at `level`, NTT form.
    fn complex_constant(&self, level: usize, re: i64, im: i64) -> Result<Poly> {
        let ring = self.ring_at(level)?;
        let n = ring.degree();
        let mut coeffs = vec![0i64; n];
        coeffs[0] = re;
        coeffs[n / 2] = -im;
        let mut p = Poly::from_signed(ring, &coeffs)?;
        p.to_ntt()?;
        Ok(p)
    }
}

fn check_target(scale: f64, op: &str) -> Result<()> {
    if scale.is_finite() && scale > 0.0 {
        Ok(())
    } else {
        Err(Error::OutOfRange(format!(
            "{op}: the target scale must be finite and > 0, got {scale}"
        )))
    }
}

impl Evaluator for CkksContext {
    type Ciphertext = CkksCiphertext;
    type Plaintext = CkksPlaintext;
    type Scalar = Complex;
    type RelinKey = RelinKey;
    type GaloisKeys = GaloisKeys;

    fn max_level(&self) -> usize {
        CkksContext::max_level(self)
    }
    fn slots(&self) -> usize {
        CkksContext::slots(self)
    }
    fn level(&self, ct: &CkksCiphertext) -> usize {
        ct.level()
    }
    fn scale(&self, ct: &CkksCiphertext) -> f64 {
        ct.scale()
    }
    fn default_scale(&self, level: usize) -> Result<f64> {
        self.scale_at(level)
    }
    fn rescale_levels(&self) -> usize {
        1
    }
    fn rescale_factor(&self, level: usize) -> Result<f64> {
        let ring = self.ring_at(level)?;
        Ok(ring.moduli()[level].value() as f64)
    }

    fn reduce_scalar(&self, c: Complex) -> Result<Complex> {
        if c.is_finite() {
            Ok(c)
        } else {
            Err(Error::OutOfRange(format!(
                "CKKS constants must be finite, got {c:?}"
            )))
        }
    }
    fn scalar_from_int(&self, v: i64) -> Complex {
        Complex::from_real(v as f64)
    }
    fn scalar_from_real(&self, v: f64) -> Result<Complex> {
        self.reduce_scalar(Complex::from_real(v))
    }
    fn scalar_mul_add(&self, a: Complex, k: i64, b: Complex) -> Complex {
        a + b.scale(k as f64)
    }

    fn add_assign(&self, a: &mut CkksCiphertext, b: &CkksCiphertext) -> Result<()> {
        CkksContext::add_assign(self, a, b)
    }
    fn sub_assign(&self, a: &mut CkksCiphertext, b: &CkksCiphertext) -> Result<()> {
        CkksContext::sub_assign(self, a, b)
    }
    fn negate_assign(&self, a: &mut CkksCiphertext) -> Result<()> {
        CkksContext::negate_assign(self, a)
    }
    fn add_const(&self, a: &CkksCiphertext, c: Complex) -> Result<CkksCiphertext> {
        let mut r = a.clone();
        Evaluator::add_const_assign(self, &mut r, c)?;
        Ok(r)
    }
    fn add_const_assign(&self, a: &mut CkksCiphertext, c: Complex) -> Result<()> {
        let c = self.reduce_scalar(c)?;
        let v = (c.im * a.scale()).round();
        if v != 0.0 {
            if v.abs() >= WORD {
                return Err(Error::OutOfRange(format!(
                    "add_const: imaginary part {} at scale 2^{:.1} does not fit in a word",
                    c.im,
                    a.scale().log2()
                )));
            }
            self.check_coefficient(v.abs(), a.level(), a.scale(), "add_const")?;
        }
        CkksContext::add_const_assign(self, a, c.re)?;
        if v != 0.0 {
            let p = self.complex_constant(a.level(), 0, v as i64)?;
            a.parts.c0_mut().add_assign(&p)?;
        }
        Ok(())
    }
    fn double_assign(&self, a: &mut CkksCiphertext) -> Result<()> {
        self.check_ct(a)?;
        a.parts.polys_mut().iter_mut().for_each(Poly::double_assign);
        Ok(())
    }
    fn add_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        CkksContext::add_plain(self, a, m)
    }

    fn mul(&self, a: &CkksCiphertext, b: &CkksCiphertext) -> Result<CkksCiphertext> {
        self.multiply_no_relin(a, b)
    }
    fn mul_at(
        &self,
        a: &CkksCiphertext,
        b: &CkksCiphertext,
        level: usize,
    ) -> Result<CkksCiphertext> {
        self.multiply_no_relin_at(a, b, level)
    }
    fn relinearize(&self, a: &CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        let mut r = a.clone();
        self.relinearize_assign(&mut r, rlk)?;
        Ok(r)
    }
    fn relinearize_owned(&self, mut a: CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        self.relinearize_assign(&mut a, rlk)?;
        Ok(a)
    }
    fn relinearize_rescale(&self, a: CkksCiphertext, rlk: &RelinKey) -> Result<CkksCiphertext> {
        CkksContext::relinearize_rescale(self, a, rlk)
    }
    fn rescale(&self, a: &CkksCiphertext) -> Result<CkksCiphertext> {
        CkksContext::rescale(self, a)
    }
    fn drop_level(&self, a: &CkksCiphertext, level: usize) -> Result<CkksCiphertext> {
        if level == a.level() {
            self.check_ct(a)?;
            return Ok(a.clone());
        }
        self.drop_to_level_keeping_scale(a, level)
    }
    fn mul_plain(&self, a: &CkksCiphertext, m: &CkksPlaintext) -> Result<CkksCiphertext> {
        CkksContext::mul_plain(self, a, m)
    }
    fn mul_const_to_scale(
        &self,
        a: &CkksCiphertext,
        c: Complex,
        scale: f64,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        check_target(scale, "mul_const_to_scale")?;
        let c = self.reduce_scalar(c)?;
        let f = scale / a.scale();
        let (re, im) = ((c.re * f).round(), (c.im * f).round());
        if !(re.abs() < WORD && im.abs() < WORD) {
            return Err(Error::OutOfRange(format!(
                "mul_const_to_scale: constant {c:?} times its factor 2^{:.2} (scale 2^{:.2} over the \
                 ciphertext's 2^{:.2}) does not fit in a word",
                f.log2(),
                scale.log2(),
                a.scale().log2()
            )));
        }
        let mut r = if im == 0.0 {
            self.mul_integer(a, re as i64)?
        } else {
            let p = self.complex_constant(a.level(), re as i64, im as i64)?;
            let mut r = a.clone();
            for part in r.parts.polys_mut().iter_mut() {
                part.mul_assign(&p)?;
            }
            r
        };
        r.scale = scale;
        Ok(r)
    }
    fn mul_const_add(
        &self,
        acc: &mut CkksCiphertext,
        a: &CkksCiphertext,
        c: Complex,
    ) -> Result<()> {
        self.check_ct(acc)?;
        self.check_ct(a)?;
        let c = self.reduce_scalar(c)?;
        let f = acc.scale() / a.scale();
        let (re, im) = ((c.re * f).round(), (c.im * f).round());
        let fits = |p: &Poly| {
            p.representation() == Representation::Ntt
                && !p.is_unreduced_product()
                && p.context().limb_len(Representation::Ntt) == p.context().degree()
        };
        let fused = im == 0.0
            && re.abs() < WORD
            && a.level() >= acc.level()
            && a.parts.len() <= acc.parts.len()
            && a.parts.iter().chain(acc.parts.iter()).all(fits);
        if !fused {
            let a = Evaluator::drop_level(self, a, acc.level())?;
            let term = Evaluator::mul_const_to_scale(self, &a, c, acc.scale())?;
            return CkksContext::add_assign(self, acc, &term);
        }
        let key_id = KeyId::join(acc.key_id, a.key_id)?;
        // Limb j of `a` times |c| (as `mul_integer`), added or, for c < 0, subtracted: the residues
        // of `drop_level`, `mul_const_to_scale` and `add_assign`.
        let v = re as i64;
        for (out, src) in acc.parts.polys_mut().iter_mut().zip(a.parts.iter()) {
            let ring = std::sync::Arc::clone(out.context());
            let n = ring.degree();
            let src = src.residues();
            parallel::for_each_limb_as(parallel::Work::Light, out.residues_mut(), n, |j, o| {
                let q = &ring.moduli()[j];
                let mut t = Buffer::stale(n);
                let w = q.shoup(q.reduce(v.unsigned_abs()));
                vector::mul_shoup_scalar_into(q, &src[j * n..(j + 1) * n], w, &mut t);
                if v < 0 {
                    vector::sub_assign(q, o, &t);
                } else {
                    vector::add_assign(q, o, &t);
                }
                Ok::<(), Error>(())
            })?;
        }
        acc.key_id = key_id;
        acc.slots = acc.slots.max(a.slots);
        Ok(())
    }
    fn mul_values_to_scale(
        &self,
        a: &CkksCiphertext,
        values: &[Complex],
        scale: f64,
    ) -> Result<CkksCiphertext> {
        self.check_ct(a)?;
        check_target(scale, "mul_values_to_scale")?;
        let pt = self.encode_at(values, a.level(), scale / a.scale())?;
        let mut r = CkksContext::mul_plain(self, a, &pt)?;
        r.scale = scale;
        Ok(r)
    }

    fn rotate(&self, a: &CkksCiphertext, step: i64, keys: &GaloisKeys) -> Result<CkksCiphertext> {
        CkksContext::rotate(self, a, step, keys)
    }
    fn conjugate(&self, a: &CkksCiphertext, keys: &GaloisKeys) -> Result<CkksCiphertext> {
        CkksContext::conjugate(self, a, keys)
    }
    fn rotate_many(
        &self,
        a: &CkksCiphertext,
        steps: &[i64],
        keys: &GaloisKeys,
    ) -> Result<Vec<CkksCiphertext>> {
        CkksContext::rotate_many(self, a, steps, keys)
    }
    fn sum_rotations(
        &self,
        a: &CkksCiphertext,
        steps: &[i64],
        weights: Option<&[Complex]>,
        keys: &GaloisKeys,
    ) -> Result<CkksCiphertext> {
        CkksContext::sum_rotations(self, a, steps, weights.map(CkksWeights::Complex), keys)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::ckks::CkksParameters;
    use crate::params::Security;
    use rnsfhe_math::sample::Csprng;

    /// A toy context (N = 2^10, 4 levels, 2^40 scale), its public key and the generator after keygen.
    fn toy(seed: u8) -> (std::sync::Arc<CkksContext>, crate::rlwe::PublicKey, Csprng) {
        let p = CkksParameters::builder()
            .degree(1 << 10)
            .levels(4)
            .scale_bits(40)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = CkksContext::new(p).unwrap();
        let mut rng = Csprng::from_seed([seed; 32]);
        let (_, pk) = ctx.keygen(&mut rng).unwrap();
        (ctx, pk, rng)
    }

    /// `mul_const_add` (limb by limb, `a` above acc's level) gives the bits of the trait's default
    /// (`drop_level`, `mul_const_to_scale`, `add_assign`) for positive, negative and complex
    /// constants (the last through the default itself), on 2- and 3-part accumulators.
    #[test]
    fn mul_const_add_is_the_default_bit_for_bit() {
        let (owner, pk, mut rng) = toy(4);
        let ctx: &CkksContext = &owner;
        let enc = |v: f64, rng: &mut Csprng| {
            ctx.encrypt(&ctx.encode_real(&[v, -v]).unwrap(), &pk, rng)
                .unwrap()
        };
        let (a, b) = (enc(0.3, &mut rng), enc(-0.7, &mut rng));
        let two = Evaluator::drop_level(ctx, &b, 2).unwrap();
        let three = ctx.multiply_no_relin(&two, &two).unwrap();
        let two = Evaluator::mul_const_to_scale(ctx, &two, Complex::from_real(1.0), 2f64.powi(70))
            .unwrap();
        for acc in [two, three] {
            for c in [
                Complex::from_real(0.625),
                Complex::from_real(-1.5),
                Complex::new(0.25, -0.5),
            ] {
                let mut fused = acc.clone();
                ctx.mul_const_add(&mut fused, &a, c).unwrap();
                let term = Evaluator::mul_const_to_scale(
                    ctx,
                    &Evaluator::drop_level(ctx, &a, acc.level()).unwrap(),
                    c,
                    acc.scale(),
                )
                .unwrap();
                let want = Evaluator::add(ctx, &acc, &term).unwrap();
                assert_eq!(fused.parts.len(), want.parts.len());
                for (f, w) in fused.parts.iter().zip(want.parts.iter()) {
                    assert_eq!(f.residues(), w.residues(), "{c:?}");
                }
                assert_eq!(fused.scale(), want.scale());
            }
        }
    }

    /// `mul_at` (the tensor of the operands' first limbs, read in place), `double_assign` and
    /// `add_const_assign` give the bits of their defaults (`drop_level` of both and `mul`; `add` of
    /// a copy; `add_const`), for operands at and above the level, and refuse an operand below it.
    #[test]
    fn in_place_forms_are_the_defaults_bit_for_bit() {
        let (owner, pk, mut rng) = toy(5);
        let ctx: &CkksContext = &owner;
        let enc = |v: f64, rng: &mut Csprng| {
            ctx.encrypt(&ctx.encode_real(&[v, -v]).unwrap(), &pk, rng)
                .unwrap()
        };
        let same = |x: &CkksCiphertext, y: &CkksCiphertext| {
            assert_eq!((x.level(), x.scale()), (y.level(), y.scale()));
            assert_eq!(x.parts.len(), y.parts.len());
            for (f, w) in x.parts.iter().zip(y.parts.iter()) {
                assert_eq!(f.residues(), w.residues());
            }
        };
        let a = enc(0.3, &mut rng);
        let b = Evaluator::drop_level(ctx, &enc(-0.7, &mut rng), 3).unwrap();
        for level in [1, 3] {
            let fused = Evaluator::mul_at(ctx, &a, &b, level).unwrap();
            let want = Evaluator::mul(
                ctx,
                &Evaluator::drop_level(ctx, &a, level).unwrap(),
                &Evaluator::drop_level(ctx, &b, level).unwrap(),
            )
            .unwrap();
            same(&fused, &want);
            let mut twice = fused.clone();
            Evaluator::double_assign(ctx, &mut twice).unwrap();
            same(&twice, &Evaluator::add(ctx, &fused, &fused).unwrap());
        }
        assert!(Evaluator::mul_at(ctx, &a, &b, 4).is_err());
        for c in [Complex::from_real(-0.75), Complex::new(0.5, 0.25)] {
            let mut x = a.clone();
            Evaluator::add_const_assign(ctx, &mut x, c).unwrap();
            same(&x, &Evaluator::add_const(ctx, &a, c).unwrap());
        }
    }
}
