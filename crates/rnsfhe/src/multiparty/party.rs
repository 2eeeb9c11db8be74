//! [`Party`]: a party's index and secret (its own s_i, or the additive share of a threshold
//! secret among the parties present), the threshold group it acts in, and the collective key
//! pair it belongs to.

use rnsfhe_math::ring::RingKind;
use rnsfhe_math::sample::Csprng;

use super::Group;
use crate::rlwe::{KeyContext, KeyId, PublicKey, SecretKey};
use crate::{Error, Result};

/// A party of a multiparty session: its index (public; its Shamir point is index + 1), its
/// secret share, the threshold group it acts in (`None`: N-out-of-N, its own s_i), and the
/// identity of the collective key pair once known ([`Self::join`]), which collective key
/// switching checks ciphertexts against.
#[derive(Debug)]
pub struct Party {
    pub(crate) index: u32,
    pub(crate) secret: SecretKey,
    pub(crate) group: Option<Group>,
    pub(crate) collective: Option<KeyId>,
}

impl Party {
    /// Party `index` holding `secret` (its own s_i: N-out-of-N).
    pub fn new(index: u32, secret: SecretKey) -> Self {
        Party {
            index,
            secret,
            group: None,
            collective: None,
        }
    }

    /// Party `index` with a fresh secret of the parameters' distribution.
    pub fn generate(ctx: &dyn KeyContext, index: u32, rng: &mut Csprng) -> Result<Self> {
        supported(ctx)?;
        Ok(Self::new(index, SecretKey::generate(ctx, rng)?))
    }

    /// The index.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The secret share (s_i, or lambda_j times a threshold share).
    pub fn secret(&self) -> &SecretKey {
        &self.secret
    }

    /// The threshold group it acts in (`None`: N-out-of-N).
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// The identity of the collective key pair, once joined.
    pub fn collective(&self) -> Option<KeyId> {
        self.collective
    }

    /// Records the collective public key this party's secret is a share of (from CKG): key
    /// switching then refuses ciphertexts of other key pairs.
    pub fn join(&mut self, collective: &PublicKey) -> Result<()> {
        crate::rlwe::check_params(
            collective.fingerprint(),
            self.secret.fingerprint(),
            "collective public key",
        )?;
        self.collective = Some(collective.id());
        Ok(())
    }

    /// Ok when the party's secret is of `ctx`'s parameters, which multiparty supports.
    pub(crate) fn check(&self, ctx: &dyn KeyContext) -> Result<()> {
        supported(ctx)?;
        crate::rlwe::check_params(
            self.secret.fingerprint(),
            ctx.params_fingerprint(),
            "party's secret key",
        )
    }
}

/// Multiparty keys are made over power-of-two rings with one key-switching layout for every key
/// (no truncated key columns, no second relinearisation ring): the general Phi_m rings' Montgomery
/// forms and FV's mixed strategy (Bajard et al. (SAC 2017)) are not supported.
pub(crate) fn supported(ctx: &dyn KeyContext) -> Result<()> {
    let sw = ctx.key_switcher();
    let why = if sw.ring_qp().kind() != RingKind::PowerOfTwo {
        "a power-of-two ring (X^n + 1)"
    } else if sw.layout().truncation > 0 {
        "untruncated key-switching keys (truncation 0)"
    } else if !std::ptr::eq(sw, ctx.relin_switcher()) {
        "one key switcher for relinearisation and rotations"
    } else {
        return Ok(());
    };
    Err(Error::InvalidParameters(format!(
        "multiparty keys need {why}"
    )))
}
