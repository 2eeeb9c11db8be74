//! The schemes' side of the refresh ([`super::refresh`]): the masks (uniform in R_t for BFV and
//! BGV, integers of b bits for CKKS), their encodings Enc_l at a level, the reading of the masked
//! phase, and the refreshed ciphertext with its noise bound (BFV, BGV) or scale (CKKS).

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use rnsfhe_math::ring::{Poly, Representation};
use rnsfhe_math::sample::Csprng;
use zeroize::Zeroize;

use super::refresh_terms::Refresh;
use super::schemes::{grow, CiphertextView};
use super::transform::SlotMap;
use super::Collective;
use crate::bfv::{BfvCiphertext, BfvContext};
use crate::bgv::{BgvCiphertext, BgvContext};
use crate::ckks::{CkksCiphertext, CkksContext};
use crate::rlwe::{log2_add, log2_modulus, KeyContext, KeyId};
use crate::{Error, Result};

/// A scheme whose ciphertexts the collective refresh takes ([`super::refresh`]): BFV, BGV, CKKS.
pub trait Refreshable: Collective {
    /// The scheme's context (opaque).
    #[doc(hidden)]
    fn refresh_scheme(&self) -> Scheme<'_>;
    /// The ciphertext as the scheme's (opaque).
    #[doc(hidden)]
    fn refresh_input<'a>(&self, ct: &'a Self::Ciphertext) -> Input<'a>;
    /// The refreshed ciphertext from the scheme's (opaque).
    #[doc(hidden)]
    fn refresh_output(&self, out: Output) -> Result<Self::Ciphertext>;
}

/// A scheme's context (opaque outside the crate).
#[derive(Clone, Copy, Debug)]
pub enum Scheme<'a> {
    #[doc(hidden)]
    Bfv(&'a BfvContext),
    #[doc(hidden)]
    Bgv(&'a BgvContext),
    #[doc(hidden)]
    Ckks(&'a CkksContext),
}

/// A scheme's ciphertext (opaque outside the crate).
#[derive(Clone, Copy, Debug)]
pub enum Input<'a> {
    #[doc(hidden)]
    Bfv(&'a BfvCiphertext),
    #[doc(hidden)]
    Bgv(&'a BgvCiphertext),
    #[doc(hidden)]
    Ckks(&'a CkksCiphertext),
}

/// A refreshed ciphertext (opaque outside the crate).
#[derive(Debug)]
pub enum Output {
    #[doc(hidden)]
    Bfv(BfvCiphertext),
    #[doc(hidden)]
    Bgv(BgvCiphertext),
    #[doc(hidden)]
    Ckks(CkksCiphertext),
}

fn wrong_scheme() -> Error {
    Error::Internal("a refreshed ciphertext of another scheme".into())
}

macro_rules! refreshable {
    ($ctx:ty, $variant:ident) => {
        impl Refreshable for $ctx {
            fn refresh_scheme(&self) -> Scheme<'_> {
                Scheme::$variant(self)
            }
            fn refresh_input<'a>(&self, ct: &'a Self::Ciphertext) -> Input<'a> {
                Input::$variant(ct)
            }
            fn refresh_output(&self, out: Output) -> Result<Self::Ciphertext> {
                match out {
                    Output::$variant(ct) => Ok(ct),
                    _ => Err(wrong_scheme()),
                }
            }
        }
    };
}
refreshable!(BfvContext, Bfv);
refreshable!(BgvContext, Bgv);
refreshable!(CkksContext, Ckks);

/// A party's mask, or the masked plaintext d: coefficients modulo t (BFV, BGV) or integers (CKKS).
/// Zeroized on drop.
pub(crate) enum Mask {
    Plain(Vec<u64>),
    Integers(Vec<i128>),
}

impl Drop for Mask {
    fn drop(&mut self) {
        match self {
            Mask::Plain(v) => v.zeroize(),
            Mask::Integers(v) => v.zeroize(),
        }
    }
}

/// r = mantissa 2^exponent exactly, for a positive finite f64 (the CKKS scale ratio).
#[derive(Clone, Copy, Debug)]
struct Ratio {
    mantissa: u64,
    exponent: i32,
}

impl Ratio {
    fn of(r: f64) -> Result<Self> {
        if !(r.is_finite() && r > 0.0 && r.is_normal()) {
            return Err(Error::Internal(format!("scale ratio {r}")));
        }
        let bits = r.to_bits();
        Ok(Ratio {
            mantissa: (bits & ((1 << 52) - 1)) | (1 << 52),
            exponent: ((bits >> 52) & 0x7ff) as i32 - 1075,
        })
    }

    /// round(x r), exactly.
    fn scale(&self, x: i128) -> Result<i128> {
        let p = BigInt::from(x) * self.mantissa;
        let y = if self.exponent >= 0 {
            p << self.exponent as u32
        } else {
            let s = (-self.exponent) as u32;
            (p + (BigInt::from(1) << (s - 1))) >> s
        };
        y.to_i128()
            .ok_or_else(|| Error::Internal("a scaled CKKS mask beyond 127 bits".into()))
    }
}

/// What one refresh or masked transform does per scheme: the masks, their encoding, the reading
/// of the masked phase and the output; `scheme` is the input's parameters, `out` the output's
/// (the same for a refresh, another set for a transform: [`super::transform::share`]).
pub(crate) struct Masks<'a> {
    scheme: Scheme<'a>,
    out: Scheme<'a>,
    /// Whether the output's ring degree differs from the input's (the plaintext changes rings).
    other_ring: bool,
    map: Option<&'a SlotMap>,
    /// CKKS: the mask bits, the ratio Delta_out / Delta_l of the scales and the slots.
    ckks: Option<(u32, Ratio, usize)>,
}

impl<'a> Masks<'a> {
    /// The masks of `refresh` for `ct`, with smudging of deviation `sigma` (CKKS: the masks hide
    /// it too).
    pub(crate) fn new<C: Refreshable + ?Sized>(
        ctx: &'a C,
        ct: &C::Ciphertext,
        refresh: &'a Refresh,
        sigma: f64,
    ) -> Result<Self> {
        Self::between(ctx, ctx, ct, refresh, sigma)
    }

    /// The masks of `refresh` for `ct` of `ctx`, re-encrypted under `out`'s parameters (module
    /// doc of [`super::transform`]: the same plaintext modulus for BFV and BGV; CKKS slots that
    /// fit the output ring).
    pub(crate) fn between<C: Refreshable + ?Sized>(
        ctx: &'a C,
        out: &'a C,
        ct: &C::Ciphertext,
        refresh: &'a Refresh,
        sigma: f64,
    ) -> Result<Self> {
        let scheme = ctx.refresh_scheme();
        let n = ctx.key_switcher().ring_q().degree();
        let n_out = out.key_switcher().ring_q().degree();
        let ckks =
            match (scheme, out.refresh_scheme(), ctx.refresh_input(ct)) {
                (Scheme::Ckks(_), Scheme::Ckks(o), Input::Ckks(ct)) => {
                    let bits = refresh
                        .mask_bits(ct.scale.log2(), sigma, n)
                        .ok_or_else(|| {
                            Error::InvalidParameters(
                                "a CKKS refresh needs a bound on the slots' values: \
                             Refresh::ckks(values_log2)"
                                    .into(),
                            )
                        })?;
                    if bits > 120 {
                        return Err(Error::InvalidParameters(format!(
                        "CKKS refresh masks of {bits} bits: at most 120 (a smaller value bound, \
                         scale or lambda)"
                    )));
                    }
                    if 2 * ct.slots > n_out {
                        return Err(Error::InvalidParameters(format!(
                            "a CKKS transform of {} slots to ring degree {n_out}, which holds {}: \
                         use fewer slots or a larger output ring",
                            ct.slots,
                            n_out / 2
                        )));
                    }
                    let top = o.max_level();
                    Some((bits, Ratio::of(o.scale_at(top)? / ct.scale)?, ct.slots))
                }
                _ if refresh.values_log2.is_some() => return Err(Error::InvalidParameters(
                    "Refresh::ckks is for CKKS ciphertexts; BFV and BGV masks are uniform modulo \
                     t and take Refresh::new()"
                        .into(),
                )),
                (Scheme::Bfv(c), Scheme::Bfv(o), _)
                    if c.params().is_full_montgomery() || o.params().is_full_montgomery() =>
                {
                    return Err(Error::InvalidParameters(
                        "a refresh of full-Montgomery BFV ciphertexts is not supported".into(),
                    ))
                }
                _ => None,
            };
        let other_ring = n != n_out;
        if ckks.is_none() {
            plain_sides(scheme, out.refresh_scheme(), other_ring)?;
        }
        if let Some(m) = &refresh.map {
            m.check(ckks.is_none(), n, ckks.map_or(0, |c| c.2))?;
        }
        Ok(Masks {
            scheme,
            out: out.refresh_scheme(),
            other_ring,
            map: refresh.map.as_ref(),
            ckks,
        })
    }

    /// CKKS: refused when `parties` masks may wrap modulo the ciphertext's Q_l.
    pub(crate) fn check_level(&self, v: &CiphertextView<'_>, parties: usize) -> Result<()> {
        if let Some((bits, _, _)) = self.ckks {
            Refresh::check_level(bits, log2_modulus(v.c1.context()), parties, v.level)?;
        }
        Ok(())
    }

    /// A fresh mask: uniform in R_t (BFV, BGV), or n integers uniform in [-2^(b-1), 2^(b-1)).
    pub(crate) fn draw(&self, n: usize, rng: &mut Csprng) -> Result<Mask> {
        Ok(match (self.scheme, self.ckks) {
            (Scheme::Bfv(c), _) => Mask::Plain((0..n).map(|_| rng.uniform_mod(c.t())).collect()),
            (Scheme::Bgv(c), _) => Mask::Plain((0..n).map(|_| rng.uniform_mod(c.t())).collect()),
            (Scheme::Ckks(_), Some((bits, _, _))) => {
                let half = 1i128 << (bits - 1);
                Mask::Integers(
                    (0..n)
                        .map(|_| {
                            let w = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
                            (w & ((1u128 << bits) - 1)) as i128 - half
                        })
                        .collect(),
                )
            }
            (Scheme::Ckks(_), None) => return Err(Error::Internal("CKKS masks unsized".into())),
        })
    }

    /// Enc_level(mask) of the input's parameters in representation `form`: Delta [x]_t (BFV),
    /// [x]_t centred (BGV), x (CKKS).
    pub(crate) fn embed(&self, mask: &Mask, level: usize, form: Representation) -> Result<Poly> {
        embed(self.scheme, mask, level, form)
    }

    /// The error distribution of the output's parameters (of the fresh errors e'_i).
    pub(crate) fn error_distribution(&self) -> &'a rnsfhe_math::sample::DiscreteGaussian {
        match self.out {
            Scheme::Bfv(c) => c.error_distribution(),
            Scheme::Bgv(c) => c.error_distribution(),
            Scheme::Ckks(c) => c.error_distribution(),
        }
    }

    /// Enc_L(mask) of the output's parameters at their top level, in representation `form`.
    pub(crate) fn embed_top(&self, mask: &Mask, form: Representation) -> Result<Poly> {
        let top = match self.out {
            Scheme::Bfv(c) => c.key_switcher().top_level(),
            Scheme::Bgv(c) => c.max_level(),
            Scheme::Ckks(c) => c.max_level(),
        };
        embed(self.out, mask, top, form)
    }

    /// The refresh's slot map of a mask (in the input's slots), then the change of ring to the
    /// output's if its degree differs, and for CKKS the scaling to the output's top-level scale.
    pub(crate) fn map(&self, mask: Mask) -> Result<Mask> {
        let mapped = match (self.map, self.scheme, &mask) {
            (None, _, _) => mask,
            (Some(m), Scheme::Bfv(c), Mask::Plain(x)) => Mask::Plain(m.apply_plain(
                x,
                c.t(),
                |s| c.galois_element(s),
                |x| c.decode(&c.plaintext_from_coefficients(x)?),
                |v| Ok(c.encode(v)?.coeffs.clone()),
            )?),
            (Some(m), Scheme::Bgv(c), Mask::Plain(x)) => Mask::Plain(m.apply_plain(
                x,
                c.t(),
                |s| c.galois_element(s),
                |x| c.decode(&c.plaintext_from_coefficients(x)?),
                |v| Ok(c.encode(v)?.coeffs.clone()),
            )?),
            (Some(m), Scheme::Ckks(c), Mask::Integers(x)) => {
                let slots = self.ckks.map_or(0, |c| c.2);
                Mask::Integers(
                    m.apply_integers(x, slots, |s| c.encoder().rotation_galois_element(s))?,
                )
            }
            _ => return Err(Error::Internal("a mask of another scheme".into())),
        };
        let mapped = if self.other_ring {
            super::transform::to_ring(self.scheme, self.out, mapped, self.ckks.map(|c| c.2))?
        } else {
            mapped
        };
        match (self.ckks, &mapped) {
            (Some((_, r, _)), Mask::Integers(x)) => Ok(Mask::Integers(
                x.iter().map(|&v| r.scale(v)).collect::<Result<_>>()?,
            )),
            _ => Ok(mapped),
        }
    }

    /// The masked plaintext d of the phase c_0 + sum_i h0_i of `ct`, whose error grew by the
    /// smudging's bound 2^`added`: BFV and BGV decrypt it (refused, with the budget it needs, when
    /// the grown bound or the measured noise reaches the limit), CKKS reads its centred integers.
    pub(crate) fn decode_masked<C: Refreshable + ?Sized>(
        &self,
        ctx: &C,
        ct: &C::Ciphertext,
        mut phase: Poly,
        added: f64,
    ) -> Result<Mask> {
        phase.to_coefficient()?;
        let low = |why: String, bound: Option<f64>| {
            let need = bound.map_or(String::new(), |b| {
                format!(
                    ", while at least {:.0} bits of noise budget remain",
                    added - b + 1.0
                )
            });
            Error::NoiseBudgetExhausted(format!(
                "refresh: the masked phase may not decrypt right ({why}); the smudging adds up to \
                 2^{added:.1} to the ciphertext's error{}: refresh earlier{need} \
                 (multiparty::refresh::headroom_log2)",
                bound.map_or(String::new(), |b| format!(" of bound 2^{b:.1}")),
            ))
        };
        match (self.scheme, ctx.refresh_input(ct)) {
            (Scheme::Bfv(c), Input::Bfv(ct)) => {
                let shift = (c.params().plain_modulus() as f64).log2() - log2_modulus(c.ring());
                let grown = c.ciphertext(Vec::new(), ct.key_id, grow(ct.noise, Some(added), shift));
                if let Err(why) = c.noise_verdict(&grown, &phase, &c.dec)? {
                    return Err(low(why, ct.noise.map(|[b, _]| b - shift)));
                }
                let n = c.params().degree();
                Ok(Mask::Plain(c.dec.decrypt(
                    c.params().decryption(),
                    phase.residues(),
                    n,
                )?))
            }
            (Scheme::Bgv(c), Input::Bgv(ct)) => {
                let t = (c.params().plain_modulus() as f64).log2();
                let grown =
                    c.ciphertext(Vec::new(), ct.level, None, grow(ct.noise, Some(added), t));
                match c.decrypt_phase(&grown, &phase) {
                    Ok(pt) => Ok(Mask::Plain(pt.coeffs.clone())),
                    Err(Error::NoiseBudgetExhausted(why)) => {
                        Err(low(why, ct.noise.map(|[b, _]| b - t)))
                    }
                    Err(e) => Err(e),
                }
            }
            (Scheme::Ckks(_), Input::Ckks(_)) => {
                let ring = phase.context();
                let (n, k) = (ring.degree(), ring.moduli().len());
                let res = phase.residues();
                let mut col = vec![0u64; k];
                let out = (0..n)
                    .map(|j| {
                        col.iter_mut()
                            .enumerate()
                            .for_each(|(i, c)| *c = res[i * n + j]);
                        let v = ring.basis().compose_centered(&col)?;
                        v.to_i128().ok_or_else(|| {
                            Error::Internal("a masked CKKS coefficient beyond 127 bits".into())
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Mask::Integers(out))
            }
            _ => Err(Error::Internal("a ciphertext of another scheme".into())),
        }
    }

    /// The refreshed ciphertext (c_0, c_1) at the top level of the output's parameters (`out`,
    /// whose scheme this is), of key pair `key_id`, made by `parties` parties: BFV and BGV with the bound of its fresh error (module doc of [`super::refresh`]),
    /// CKKS at the top level's scale.
    pub(crate) fn output<C: Refreshable + ?Sized>(
        &self,
        out: &C,
        [c0, c1]: [Poly; 2],
        key_id: Option<KeyId>,
        parties: usize,
    ) -> Result<C::Ciphertext> {
        let k = parties.max(1) as f64;
        let made = match (self.out, self.ckks) {
            (Scheme::Bfv(c), _) => {
                let bound = bfv_bound(c, k)?;
                Output::Bfv(c.ciphertext(vec![c0, c1], key_id, Some(bound)))
            }
            (Scheme::Bgv(c), _) => {
                let p = c.params();
                let (n, t, sigma) = (p.degree() as f64, p.plain_modulus() as f64, p.sigma());
                // [d]_t + sum_i [M_i]_t + t sum_i e'_i: (k + 1) t / 2 + t z sqrt(k) sigma.
                let inf = ((k + 1.0) * t / 2.0 + t * Z * k.sqrt() * sigma).log2();
                let l2 = (n.sqrt() * (k + 1.0) * t / 2.0 + t * Z2 * (n * k).sqrt() * sigma).log2();
                let top = c.max_level();
                Output::Bgv(c.ciphertext(vec![c0, c1], top, key_id, Some([inf, l2])))
            }
            (Scheme::Ckks(c), Some((_, _, slots))) => {
                let top = c.max_level();
                Output::Ckks(CkksCiphertext {
                    parts: vec![c0, c1].into(),
                    level: top,
                    scale: c.scale_at(top)?,
                    slots,
                    fingerprint: c.fingerprint(),
                    key_id,
                })
            }
            (Scheme::Ckks(_), None) => return Err(wrong_scheme()),
        };
        out.refresh_output(made)
    }
}

/// Ok when BFV or BGV masks can go from `input`'s parameters to `output`'s: the same plaintext
/// modulus t (the masks are uniform modulo t), and, when the ring degree changes
/// (`other_ring`: the slots are carried, [`super::transform`]), batching in both.
fn plain_sides(input: Scheme<'_>, output: Scheme<'_>, other_ring: bool) -> Result<()> {
    let (t_in, n_in, t_out, n_out) = match (input, output) {
        (Scheme::Bfv(a), Scheme::Bfv(b)) => (
            a.params().plain_modulus(),
            a.params().degree(),
            b.params().plain_modulus(),
            b.params().degree(),
        ),
        (Scheme::Bgv(a), Scheme::Bgv(b)) => (
            a.params().plain_modulus(),
            a.params().degree(),
            b.params().plain_modulus(),
            b.params().degree(),
        ),
        _ => return Err(wrong_scheme()),
    };
    if t_in != t_out {
        return Err(Error::InvalidParameters(format!(
            "a transform between plaintext moduli t = {t_in} and t = {t_out}: the shares of the \
             plaintext are modulo t, which both parameter sets must share"
        )));
    }
    let batching = |n: usize| t_in % (2 * n as u64) == 1;
    if other_ring && !(batching(n_in) && batching(n_out)) {
        return Err(Error::InvalidParameters(format!(
            "a transform from ring degree {n_in} to {n_out} carries the slots, which needs \
             batching in both (t = {t_in} = 1 mod 2n)"
        )));
    }
    Ok(())
}

/// Enc_level(mask) of `scheme` in representation `form`: Delta [x]_t (BFV), [x]_t centred (BGV),
/// x (CKKS); plain form (multiparty rings are power-of-two: no Montgomery representation).
fn embed(scheme: Scheme<'_>, mask: &Mask, level: usize, form: Representation) -> Result<Poly> {
    // In coefficient form first: one transform at most, to the form asked for.
    let mut p = match (scheme, mask) {
        (Scheme::Bfv(c), Mask::Plain(x)) => c.scaled_plain(&c.plaintext_from_coefficients(x)?)?,
        (Scheme::Bgv(c), Mask::Plain(x)) => {
            let t = c.t();
            let centred: Vec<i64> = x.iter().map(|&v| t.center(v)).collect();
            Poly::from_signed(c.ring_at(level)?, &centred)?
        }
        (Scheme::Ckks(c), Mask::Integers(x)) => {
            crate::ckks::integers_to_coefficients(c.ring_at(level)?, x)?
        }
        _ => return Err(Error::Internal("a mask of another scheme".into())),
    };
    match form {
        Representation::Ntt => p.to_ntt()?,
        Representation::Coefficient => p.to_coefficient()?,
    }
    Ok(p)
}

/// The schemes' heuristic constants (`bfv/noise.rs`, `bgv/noise.rs`): standard deviations covered
/// by an infinity-norm bound, and the factor over an expected l2 norm.
const Z: f64 = 10.0;
const Z2: f64 = 2.0;

/// The invariant noise bound (log2 [inf, l2]) of a BFV refresh by k parties: phase Delta [m]_t + v
/// with v = sum_i e'_i - [Q]_t K (the wrap of d + M past t, |K| <= (k + 2) / 2), so nu = t v / Q -
/// [Q]_t [m]_t / Q with ||m|| <= t / 2.
fn bfv_bound(c: &BfvContext, k: f64) -> Result<[f64; 2]> {
    let p = c.params();
    let (n, t, sigma) = (p.degree() as f64, p.plain_modulus() as f64, p.sigma());
    let r = (c.ring().basis().product() % p.plain_modulus())
        .to_f64()
        .ok_or_else(|| Error::Internal("[Q]_t".into()))?;
    let lq = log2_modulus(c.ring());
    let wrap = r * (k + 2.0) / 2.0;
    let inf = log2_add(
        (t * (Z * k.sqrt() * sigma + wrap)).log2() - lq,
        (r * t / 2.0).log2() - lq,
    );
    let l2 = log2_add(
        (t * (Z2 * (n * k).sqrt() * sigma + n.sqrt() * wrap)).log2() - lq,
        (r * n.sqrt() * t / 2.0).log2() - lq,
    );
    Ok([inf, l2])
}

/// log2 of the bound on the error of the view's ciphertext (in the units of `noise_log2`: BFV's v
/// of Delta m + v, BGV's e of m + t e) below which it decrypts: Q_l / (2 t) for both (BFV: Delta / 2;
/// BGV: t e below Q_l / 2); CKKS: Q_l / 2.
pub(crate) fn decryption_limit_log2<C: Refreshable + ?Sized>(
    ctx: &C,
    v: &CiphertextView<'_>,
) -> f64 {
    let t = match ctx.refresh_scheme() {
        Scheme::Bfv(c) => c.params().plain_modulus(),
        Scheme::Bgv(c) => c.params().plain_modulus(),
        Scheme::Ckks(_) => 1,
    };
    log2_modulus(v.c1.context()) - (t as f64).log2() - 1.0
}
