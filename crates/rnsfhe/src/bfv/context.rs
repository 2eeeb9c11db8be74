//! The BFV context: precomputation, keys and encoding; encryption and decryption in [`encryption`].

mod encryption;

use std::sync::Arc;

use num_bigint::BigUint;
use rnsfhe_math::arith::{Modulus, Shoup};
use rnsfhe_math::ring::cyclotomic::{
    montgomery_inverse_norm, montgomery_inverse_row_norms, reduction_expansion,
};
use rnsfhe_math::ring::{Form, Poly, RingContext};
use rnsfhe_math::sample::{DiscreteGaussian, DEFAULT_TAIL};

use super::decrypt::{Decryptor, SwitchedDecryption};
use super::noise::NoiseModel;
use super::{
    BehzTool, BfvCiphertext, BfvParameters, BfvPlaintext, HpsTool, Multiplication, RingShape,
};
use crate::encoding::Encoders;
use crate::rlwe::{KeySwitcher, Levels};
use crate::Result;

/// The multiplication method's tables: one variant per [`Multiplication`], dispatched here only.
#[derive(Debug)]
pub enum MulTool {
    /// Bajard et al. (SAC 2016) Alg. 3.
    Behz(Box<BehzTool>),
    /// HPS.
    Hps(Box<HpsTool>),
}

impl MulTool {
    /// The auxiliary ring (B_sk or P) where the tensor is also computed.
    pub fn aux_ring(&self) -> &Arc<RingContext> {
        match self {
            MulTool::Behz(b) => b.ring_bsk(),
            MulTool::Hps(h) => h.ring_p(),
        }
    }

    /// Extends a ciphertext polynomial (coefficient form over Q) to the auxiliary base.
    /// Full Montgomery (Bajard et al. (SAC 2017) section 4.1): the extension acts on the residues of c M, so its
    /// output is the Montgomery form of the lift.
    pub fn extend(&self, c: &Poly) -> Result<Poly> {
        let mut out = match self {
            MulTool::Behz(b) => b.extend(c)?,
            MulTool::Hps(h) => h.extend(c)?,
        };
        keep_montgomery(&mut out, c)?;
        Ok(out)
    }

    /// From a tensor component in Q and the auxiliary base to (about) t x / Q in Q.
    /// Full Montgomery: x is the Montgomery form of (lift_a M^-1)(lift_b M^-1) M; the scaled
    /// residues round(t x / q) are read in Montgomery form again (Proposition 1).
    pub fn scale_down(&self, xq: &Poly, xa: &Poly, ring_q: &Arc<RingContext>) -> Result<Poly> {
        let mut out = match self {
            MulTool::Behz(b) => b.scale_down(xq, xa, ring_q)?,
            MulTool::Hps(h) => h.scale_down(xq, xa, ring_q)?,
        };
        keep_montgomery(&mut out, xq)?;
        Ok(out)
    }
}

/// Gives `out` (residues computed coefficient-wise from those of `x`) the Montgomery form of `x`.
fn keep_montgomery(out: &mut Poly, x: &Poly) -> Result<()> {
    if x.montgomery_form() == Form::Montgomery {
        out.relabel_form(Form::Montgomery)?;
    }
    Ok(())
}

/// Everything a BFV parameter set precomputes; create once with [`BfvContext::new`] and share.
///
/// # Example
///
/// Batched slots form a 2 x n/2 matrix; a Galois key rotates its rows, and the noise budget says
/// how much computation a ciphertext can still take (toy, insecure size):
///
/// ```
/// use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
/// use rnsfhe::params::Security;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let params = BfvParameters::builder()
///     .degree(1024)
///     .plain_modulus(12289)
///     .moduli_bits(&[50, 50, 50])
///     .special_moduli_bits(&[50])
///     .multiplication(Multiplication::Behz) // or Hps (the default): same results
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = BfvContext::new(params)?;
/// let mut rng = Csprng::from_seed([1; 32]);
/// let (sk, pk) = ctx.keygen(&mut rng)?;
/// let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
///
/// let x: Vec<u64> = (0..1024).map(|i| i * i % 12289).collect();
/// let c = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
/// let r = ctx.rotate_rows(&ctx.mul_scalar(&c, 3)?, 1, &gk)?;
///
/// let got = ctx.decode(&ctx.decrypt(&r, &sk)?)?;
/// for (i, g) in got.iter().enumerate() {
///     let j = i / 512 * 512 + (i % 512 + 1) % 512; // each row rotated left by one
///     assert_eq!(*g, 3 * x[j] % 12289);
/// }
/// assert!(ctx.noise_budget(&r, &sk)? > 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct BfvContext {
    /// The parameter set's fingerprint: ciphertexts, plaintexts and keys carry it, and any context of
    /// equal parameters accepts them (in any process).
    fingerprint: u64,
    params: BfvParameters,
    sw: KeySwitcher,
    /// The mixed strategy's relinearisation (Bajard et al. (SAC 2017) section 4.4): the same moduli over a ring
    /// reducing by Montgomery, whose keys carry M.
    relin_sw: Option<KeySwitcher>,
    gaussian: DiscreteGaussian,
    /// Batch (X^n + 1), GF(t^d) slot (general Phi_m, Bajard et al. (SAC 2017) section 2.4) and coefficient encoders.
    encoders: Encoders,
    /// log2 of the reduction's expansion (0 for X^n + 1), for the noise model.
    pub(crate) log_rho: f64,
    /// Full Montgomery: the growth factors (sd, infinity norm) of the noise terms carrying M^-1
    /// (1 otherwise).
    pub(crate) mu: (f64, f64),
    t: Modulus,
    /// Delta = floor(q / t) mod q_i.
    delta: Vec<Shoup>,
    pub(crate) dec: Decryptor,
    /// `decrypt`'s modulus switch to a shorter prefix of q first (X^n + 1 only).
    switched: Option<SwitchedDecryption>,
    mul: MulTool,
    pub(crate) noise: NoiseModel,
}

impl BfvContext {
    /// Builds all tables for `params`.
    pub fn new(params: BfvParameters) -> Result<Arc<Self>> {
        let n = params.degree;
        let t = params.plain_modulus;
        let rings = Levels::of(
            n,
            params.cyclotomic.map(|m| (m, params.ring_reduction())),
            &params.moduli,
            &params.special_moduli,
        )?;
        let sw = KeySwitcher::on(rings, params.key_switching)?;
        let shape = RingShape {
            n,
            general: params.cyclotomic.map(|m| (m, params.ring_reduction())),
            delta: match params.cyclotomic {
                Some(_) => n as f64 * reduction_expansion(sw.ring_q().phi())?,
                None => n as f64,
            },
        };
        // Full Montgomery (Bajard et al. (SAC 2017) section 4.1): the tensor over q u B_sk (u P) is x M^-1 with
        // ||x M^-1|| <= delta_R ||M^-1||_inf ||x||, so the auxiliary bases are sized for
        // delta_R^2 ||M^-1||_inf; mu = the row norms (l2, l1) of w -> w M^-1 scale the noise terms
        // that carry M^-1 (the products' lift, heuristically by its sd, and their rounding).
        let (sizing, mu) = if params.is_full_montgomery() {
            let m = params.cyclotomic_index();
            let (l1, l2) = montgomery_inverse_row_norms(m)?;
            let sizing = RingShape {
                delta: shape.delta * shape.delta * montgomery_inverse_norm(m)?,
                ..shape
            };
            (sizing, (l2.max(1.0), l1.max(1.0)))
        } else {
            (shape, (1.0, 1.0))
        };
        let q = sw.ring_q().basis().clone();
        let delta_big: BigUint = q.product() / t;
        let delta = q
            .moduli()
            .iter()
            .map(|m| {
                m.shoup(
                    (&delta_big % m.value())
                        .iter_u64_digits()
                        .next()
                        .unwrap_or(0),
                )
            })
            .collect();
        let exclude: Vec<u64> = params.special_moduli.clone();
        let mul = match params.multiplication {
            Multiplication::Behz => MulTool::Behz(Box::new(BehzTool::new(
                &sizing,
                &q,
                t,
                params.m_tilde,
                &exclude,
            )?)),
            Multiplication::Hps => MulTool::Hps(Box::new(HpsTool::new(&sizing, &q, t, &exclude)?)),
        };
        let encoders = Encoders::new(n, t, params.cyclotomic, params.batching_slots() > 0)?;
        let relin_sw = match params.cyclotomic {
            Some(m) if params.is_mixed_montgomery() => Some(KeySwitcher::on(
                Levels::cyclotomic(
                    m,
                    &params.moduli,
                    &params.special_moduli,
                    rnsfhe_math::ring::Reduction::Montgomery,
                )?,
                params.key_switching,
            )?),
            _ => None,
        };
        let mut ctx = BfvContext {
            relin_sw,
            fingerprint: params.fingerprint(),
            gaussian: DiscreteGaussian::new(params.sigma, DEFAULT_TAIL)?,
            t: Modulus::new(t)?,
            dec: Decryptor::new(&q, t)?,
            switched: match params.cyclotomic {
                None => SwitchedDecryption::new(&q, t, n)?,
                Some(_) => None,
            },
            params,
            sw,
            encoders,
            log_rho: shape.delta.log2() - (n as f64).log2(),
            mu,
            delta,
            mul,
            noise: NoiseModel::default(),
        };
        ctx.noise = NoiseModel::new(&ctx);
        Ok(Arc::new(ctx))
    }

    /// The parameters.
    pub fn params(&self) -> &BfvParameters {
        &self.params
    }
    /// The parameter set's fingerprint (`crate::serialize::fingerprint` of what defines its rings and
    /// chain): the identity of the context, carried by its ciphertexts, plaintexts and keys.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
    /// The ring R_Q.
    pub fn ring(&self) -> &Arc<RingContext> {
        self.sw.ring_q()
    }
    /// Key-switching precomputation.
    pub fn key_switcher(&self) -> &KeySwitcher {
        &self.sw
    }
    /// The key switcher of relinearisation: the Montgomery one under the mixed strategy (Bajard et al. (SAC 2017)
    /// section 4.4), else [`Self::key_switcher`].
    pub fn relin_switcher(&self) -> &KeySwitcher {
        self.relin_sw.as_ref().unwrap_or(&self.sw)
    }
    /// The multiplication tool.
    pub fn mul_tool(&self) -> &MulTool {
        &self.mul
    }
    pub(crate) fn t(&self) -> &Modulus {
        &self.t
    }
    /// gamma of Alg. 1 and of Lemma 3, as chosen by Theorem 1 (`None` when t is too large for the
    /// gamma-correction; HPS and floating-point decryption still work).
    pub fn gammas(&self) -> Option<(u64, u64)> {
        self.dec.gammas()
    }
    pub(crate) fn check_ct(&self, ct: &BfvCiphertext) -> Result<()> {
        crate::params::check_ciphertext(ct.fingerprint, self.fingerprint, ct.parts.len())
    }

    /// [m]_t lifted centred to Q, coefficient form.
    pub(crate) fn lift_plain(&self, pt: &BfvPlaintext) -> Result<Poly> {
        self.check_plain(pt)?;
        let centered: Vec<i64> = pt.coeffs.iter().map(|&c| self.t.center(c)).collect();
        Ok(Poly::from_signed(self.ring(), &centered)?)
    }

    /// Delta [m]_t over Q, coefficient form.
    pub(crate) fn scaled_plain(&self, pt: &BfvPlaintext) -> Result<Poly> {
        let mut m = self.lift_plain(pt)?;
        let n = self.params.degree;
        for ((limb, q), d) in m
            .residues_mut()
            .chunks_exact_mut(n)
            .zip(self.ring().moduli())
            .zip(&self.delta)
        {
            limb.iter_mut().for_each(|x| *x = q.mul_shoup(*x, *d));
        }
        Ok(m)
    }

    /// p as a ciphertext part: p M in the full Montgomery representation (Bajard et al. (SAC 2017) section 4), p
    /// otherwise.
    pub(crate) fn enter(&self, p: Poly) -> Result<Poly> {
        if self.params.is_full_montgomery() && p.montgomery_form() == Form::Plain {
            return Ok(p.to_montgomery()?);
        }
        Ok(p)
    }
}

crate::encoding::integer_encoding_methods!(BfvContext, BfvPlaintext);
crate::rlwe::key_methods!(BfvContext, relin_switcher: relin_switcher);
