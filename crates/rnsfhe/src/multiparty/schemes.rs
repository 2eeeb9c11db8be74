//! [`Collective`]: what collective key switching needs of a scheme, implemented by BFV, BGV and
//! CKKS. The protocols work on the RLWE ciphertext (c_0, c_1) at its level and in its
//! representation; a scheme adds its noise factor (BGV: t, so that the smudging stays a multiple
//! of t), the noise bound it carries, and the decoding of a phase.

use rnsfhe_math::ring::Poly;

use crate::bfv::{BfvCiphertext, BfvContext, BfvPlaintext};
use crate::bgv::{BgvCiphertext, BgvContext, BgvPlaintext};
use crate::ckks::{CkksCiphertext, CkksContext, CkksPlaintext};
use crate::rlwe::{log2_add, log2_modulus, KeyContext, KeyId};
use crate::{Error, Result};

/// The RLWE view of a ciphertext (opaque outside the crate).
#[derive(Debug)]
pub struct CiphertextView<'a> {
    pub(crate) c0: &'a Poly,
    pub(crate) c1: &'a Poly,
    pub(crate) level: usize,
    pub(crate) key_id: Option<KeyId>,
    /// The factor of every error added (BGV: t; else 1).
    pub(crate) factor: u64,
    /// log2 of a bound on ||e||_inf, the error smudging hides (BGV: e of m + t e).
    pub(crate) noise_log2: Option<f64>,
}

/// A scheme whose ciphertexts collective key switching and decryption take (`BfvContext`,
/// `BgvContext`, `CkksContext`).
pub trait Collective: KeyContext {
    /// The scheme's ciphertext.
    type Ciphertext;
    /// The scheme's plaintext.
    type Plaintext;
    /// The RLWE view of a 2-part ciphertext of this context (refused otherwise).
    fn view<'a>(&self, ct: &'a Self::Ciphertext) -> Result<CiphertextView<'a>>;
    /// `ct` with the parts (c_0, c_1) of key pair `key_id`, its error grown by a bound of
    /// 2^added (times the factor; `None`: unknown from now on).
    fn rebuild(
        &self,
        ct: &Self::Ciphertext,
        parts: [Poly; 2],
        key_id: Option<KeyId>,
        added: Option<f64>,
    ) -> Self::Ciphertext;
    /// The plaintext of the phase x of `ct` (its representation), after collective decryption
    /// added an error of bound 2^added.
    fn decode(&self, ct: &Self::Ciphertext, phase: Poly, added: f64) -> Result<Self::Plaintext>;
}

/// Carried bounds (log2 of ||.||_inf and ||.||_2) grown by 2^(added + shift) each; unknown
/// stays unknown, and so does a bound grown by an unknown amount.
pub(super) fn grow(noise: Option<[f64; 2]>, added: Option<f64>, shift: f64) -> Option<[f64; 2]> {
    let (b, a) = (noise?, added? + shift);
    Some(b.map(|x| log2_add(x, a)))
}

/// Refuses a ciphertext of other than 2 parts.
fn two_parts(parts: &[Poly]) -> Result<(&Poly, &Poly)> {
    match parts {
        [c0, c1] => Ok((c0, c1)),
        _ => Err(Error::InvalidCiphertext(format!(
            "collective key switching takes 2-part ciphertexts, got {} parts; relinearize first",
            parts.len()
        ))),
    }
}

impl Collective for BfvContext {
    type Ciphertext = BfvCiphertext;
    type Plaintext = BfvPlaintext;

    fn view<'a>(&self, ct: &'a BfvCiphertext) -> Result<CiphertextView<'a>> {
        self.check_ct(ct)?;
        let (c0, c1) = two_parts(&ct.parts)?;
        // ||v||_inf = ||nu|| q / t for the invariant noise nu = t ct(s) / q - m.
        let shift = log2_modulus(self.ring()) - (self.params().plain_modulus() as f64).log2();
        Ok(CiphertextView {
            c0,
            c1,
            level: self.key_switcher().top_level(),
            key_id: ct.key_id,
            factor: 1,
            noise_log2: ct.noise.map(|[inf, _]| inf + shift),
        })
    }

    fn rebuild(
        &self,
        ct: &BfvCiphertext,
        [c0, c1]: [Poly; 2],
        key_id: Option<KeyId>,
        added: Option<f64>,
    ) -> BfvCiphertext {
        // The invariant noise nu = t v / q.
        let shift = (self.params().plain_modulus() as f64).log2() - log2_modulus(self.ring());
        self.ciphertext(vec![c0, c1], key_id, grow(ct.noise, added, shift))
    }

    fn decode(&self, _ct: &BfvCiphertext, mut phase: Poly, _added: f64) -> Result<BfvPlaintext> {
        phase.to_coefficient()?;
        let n = self.params().degree();
        let m = self
            .dec
            .decrypt(self.params().decryption(), phase.residues(), n)?;
        self.plaintext_from_coefficients(&m)
    }
}

impl Collective for BgvContext {
    type Ciphertext = BgvCiphertext;
    type Plaintext = BgvPlaintext;

    fn view<'a>(&self, ct: &'a BgvCiphertext) -> Result<CiphertextView<'a>> {
        self.check_ct(ct)?;
        let (c0, c1) = two_parts(&ct.parts)?;
        let t = self.params().plain_modulus();
        Ok(CiphertextView {
            c0,
            c1,
            level: ct.level,
            key_id: ct.key_id,
            factor: t,
            noise_log2: ct.noise.map(|[inf, _]| inf - (t as f64).log2()),
        })
    }

    fn rebuild(
        &self,
        ct: &BgvCiphertext,
        [c0, c1]: [Poly; 2],
        key_id: Option<KeyId>,
        added: Option<f64>,
    ) -> BgvCiphertext {
        let t = (self.params().plain_modulus() as f64).log2();
        BgvCiphertext {
            parts: vec![c0, c1].into(),
            level: ct.level,
            fingerprint: ct.fingerprint,
            key_id,
            noise: grow(ct.noise, added, t),
        }
    }

    fn decode(&self, ct: &BgvCiphertext, mut phase: Poly, added: f64) -> Result<BgvPlaintext> {
        phase.to_coefficient()?;
        let t = (self.params().plain_modulus() as f64).log2();
        // The decryption's verdict reads the level and the grown noise bound only.
        let grown = BgvCiphertext {
            parts: Vec::new().into(),
            level: ct.level,
            fingerprint: ct.fingerprint,
            key_id: None,
            noise: grow(ct.noise, Some(added), t),
        };
        self.decrypt_phase(&grown, &phase)
    }
}

impl Collective for CkksContext {
    type Ciphertext = CkksCiphertext;
    type Plaintext = CkksPlaintext;

    fn view<'a>(&self, ct: &'a CkksCiphertext) -> Result<CiphertextView<'a>> {
        self.check_ct(ct)?;
        let (c0, c1) = two_parts(&ct.parts)?;
        Ok(CiphertextView {
            c0,
            c1,
            level: ct.level,
            key_id: ct.key_id,
            factor: 1,
            noise_log2: None,
        })
    }

    fn rebuild(
        &self,
        ct: &CkksCiphertext,
        [c0, c1]: [Poly; 2],
        key_id: Option<KeyId>,
        _added: Option<f64>,
    ) -> CkksCiphertext {
        CkksCiphertext {
            parts: vec![c0, c1].into(),
            level: ct.level,
            scale: ct.scale,
            slots: ct.slots,
            fingerprint: ct.fingerprint,
            key_id,
        }
    }

    fn decode(&self, ct: &CkksCiphertext, mut phase: Poly, _added: f64) -> Result<CkksPlaintext> {
        phase.to_ntt()?;
        Ok(CkksPlaintext {
            poly: phase,
            level: ct.level,
            scale: ct.scale,
            slots: ct.slots,
            fingerprint: ct.fingerprint,
        })
    }
}
