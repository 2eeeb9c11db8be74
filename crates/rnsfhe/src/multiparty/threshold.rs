//! The thresholdizer of Mouchet, Bertrand and Hubaux ("An Efficient Threshold Access-Structure
//! for RLWE-Based Multiparty Homomorphic Encryption", 2022, section 4): t-out-of-N from the
//! N-out-of-N secret s = sum_i s_i.
//!
//! - Party i draws f_i(X) = s_i + c_1 X + ... + c_{t-1} X^{t-1}, each c_k uniform mod Q u P (a
//!   polynomial of degree t - 1 over Z_QP per coefficient of the ring element; in RNS, over each
//!   prime), and sends f_i(x_j) to party j (x_j = j + 1, public and non-zero: [`Group::point`]).
//! - Party j sums what it receives: its threshold share F(x_j) for F = sum_i f_i, F(0) = s.
//! - Any set T of at least t parties: party j in T holds lambda_j F(x_j) with the Lagrange
//!   coefficient lambda_j = prod_{k in T, k != j} x_k / (x_k - x_j), computed per prime (word
//!   size; x_k - x_j is invertible since the points are distinct and below every prime); the sum
//!   over T is F(0) = s. These additive shares run every N-out-of-N protocol among T
//!   ([`Party::group`] records T: the shares of one run must agree on it), so a party that drops
//!   out does not stop the others.
//!
//! The dealing needs every party (s has every s_i in it); afterwards t suffice.

use rnsfhe_math::ring::{Form, Poly, Representation};
use rnsfhe_math::sample::Csprng;
use zeroize::Zeroize;

pub use super::reshare::{reshare_polynomial, reshare_round, reshared_group};
use super::share::{crs_id, sorted_parties};
use super::{Group, Party, Protocol, Round, Share};
use crate::rlwe::{Crs, KeyContext, SecretKey};
use crate::{Error, Result};

/// Party i's Shamir polynomial f_i (its t coefficients in NTT form over Q u P, the first its
/// secret s_i), zeroized on drop; it never leaves the party.
pub struct ShamirPolynomial {
    pub(super) party: u32,
    pub(super) coeffs: Vec<Poly>,
    pub(super) fingerprint: u64,
    /// For a re-sharing ([`super::reshare`]): the old parties acting together, whose
    /// Lagrange-weighted shares the new group's shares sum.
    pub(super) from: Option<Group>,
}

impl core::fmt::Debug for ShamirPolynomial {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "ShamirPolynomial(party {}, t = {})",
            self.party,
            self.coeffs.len()
        )
    }
}

impl Drop for ShamirPolynomial {
    fn drop(&mut self) {
        for c in &mut self.coeffs {
            c.residues_mut().zeroize();
        }
    }
}

/// Party `party`'s Shamir polynomial of threshold t (degree t - 1), its secret the constant term.
pub fn shamir_polynomial(
    ctx: &dyn KeyContext,
    party: &Party,
    t: usize,
    rng: &mut Csprng,
) -> Result<ShamirPolynomial> {
    party.check(ctx)?;
    if t == 0 || t > super::share::MAX_PARTIES {
        return Err(Error::InvalidParameters(format!(
            "threshold t = {t}: must be at least 1"
        )));
    }
    let ring = ctx.key_switcher().ring_qp();
    let mut coeffs = Vec::with_capacity(t);
    coeffs.push(party.secret.ntt_qp().clone());
    for _ in 1..t {
        let data = rng.uniform_poly(ring.moduli(), ring.degree());
        coeffs.push(Poly::from_residues(ring, data, Representation::Ntt)?);
    }
    Ok(ShamirPolynomial {
        party: party.index,
        coeffs,
        fingerprint: ctx.params_fingerprint(),
        from: None,
    })
}

/// The round of the Shamir shares for `recipient` among `group` (the N parties, threshold t) in
/// the session of `crs`: what `recipient`'s aggregator expects from every member.
pub fn shamir_round(
    ctx: &dyn KeyContext,
    crs: &Crs,
    group: &Group,
    recipient: u32,
) -> Result<Round> {
    if !group.contains(recipient) {
        return Err(Error::InvalidParameters(format!(
            "Shamir share for party {recipient}, not a member of {:?}",
            group.members
        )));
    }
    Ok(Round {
        protocol: Protocol::Shamir,
        round: 1,
        crs: crs_id(crs),
        binding: Group::point(recipient),
        group: Some(group.clone()),
        level: ctx.key_switcher().top_level(),
        elements: Vec::new(),
    })
}

impl ShamirPolynomial {
    /// The threshold t.
    pub fn t(&self) -> usize {
        self.coeffs.len()
    }

    /// The share f_i(x_j) for party `recipient` of `group` (secret: send it to that party only).
    /// For a re-sharing polynomial, `group` is the new group.
    pub fn share_for(
        &self,
        ctx: &dyn KeyContext,
        crs: &Crs,
        group: &Group,
        recipient: u32,
    ) -> Result<Share> {
        crate::rlwe::check_params(
            self.fingerprint,
            ctx.params_fingerprint(),
            "Shamir polynomial",
        )?;
        let dealer = self.from.is_some() || group.contains(self.party);
        if group.t() != self.t() || !dealer {
            return Err(Error::InvalidParameters(format!(
                "party {}'s Shamir polynomial of threshold {} for the group {group:?}",
                self.party,
                self.t()
            )));
        }
        let round = match &self.from {
            None => shamir_round(ctx, crs, group, recipient)?,
            Some(acting) => super::reshare::reshare_round(ctx, crs, acting, group, recipient)?,
        };
        // Horner: f(x) = (...(c_{t-1} x + c_{t-2}) x + ...) x + c_0, limb by limb, block by block
        // (every coefficient read once).
        let ring = self.coeffs[0].context();
        let x = Group::point(recipient);
        let n = ring.limb_len(Representation::Ntt);
        let acc = Poly::from_fill(ring, Representation::Ntt, |data| -> Result<()> {
            for (i, (out, q)) in data.chunks_exact_mut(n).zip(ring.moduli()).enumerate() {
                let rows = (self.coeffs.iter())
                    .map(|c| c.limb(i))
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                rnsfhe_math::arith::vector::horner(q, &rows, x, out);
            }
            Ok(())
        })?;
        Ok(Share::of_party(ctx, round, self.party, vec![acc]))
    }
}

/// Party j's threshold share F(x_j) (NTT form over Q u P) of the group it was dealt in; zeroized
/// on drop. Serialisable as secret bytes ([`Self::to_bytes`]).
pub struct ThresholdSecret {
    pub(crate) index: u32,
    pub(crate) group: Group,
    pub(crate) share: Poly,
    pub(crate) fingerprint: u64,
}

impl core::fmt::Debug for ThresholdSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ThresholdSecret(party {}, {:?})", self.index, self.group)
    }
}

impl Drop for ThresholdSecret {
    fn drop(&mut self) {
        self.share.residues_mut().zeroize();
    }
}

impl ThresholdSecret {
    /// Party `index`'s threshold share from the complete aggregate of the Shamir shares it
    /// received from every member of `group` (the group it expects: refused, naming the parties,
    /// when the aggregate misses any member, sums others' shares or is of another group).
    pub fn from_aggregate(
        ctx: &dyn KeyContext,
        crs: &Crs,
        group: &Group,
        aggregate: &Share,
        index: u32,
    ) -> Result<Self> {
        let expected = shamir_round(ctx, crs, group, index)?;
        aggregate.check_final(ctx, &expected, &group.members)?;
        Ok(ThresholdSecret {
            index,
            share: aggregate.polys[0].clone(),
            group: group.clone(),
            fingerprint: ctx.params_fingerprint(),
        })
    }

    /// The party's index.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The group it was dealt in (the N parties and t).
    pub fn group(&self) -> &Group {
        &self.group
    }

    /// The additive share lambda_j F(x_j) of s among the parties `present` (at least t members of
    /// the group, this one among them), as a [`Party`] acting in that set.
    pub fn combine(&self, ctx: &dyn KeyContext, present: &[u32]) -> Result<Party> {
        let (present, lambdas) = self.lagrange_at(ctx, present)?;
        let ring = self.share.context();
        let mut p = Poly::from_fill(ring, Representation::Ntt, |d| {
            self.scale_into(&lambdas, d);
            Ok::<(), Error>(())
        })?;
        // t >= 2: lambda_j F(x_j) is uniform, kept in NTT form (the scaling is all the work, as in
        // Lattigo's combiner); t = 1: F is constant, the share may be small (checked).
        let secret = if self.group.t() >= 2 {
            SecretKey::share_from_ntt(ctx, p)?
        } else {
            let secret = SecretKey::share_from_poly(ctx, &p);
            p.residues_mut().zeroize();
            secret?
        };
        Ok(Party {
            index: self.index,
            secret,
            group: Some(self.acting(present)),
            collective: None,
        })
    }

    /// [`Self::combine`] into `out`, whose secret's buffer takes the share (no allocation, as
    /// Lattigo's `GenAdditiveShare` writes into its secret key); `out` becomes this party acting
    /// among `present` (its previous secret zeroized, its collective key forgotten). On an error
    /// `out` is unchanged.
    pub fn combine_into(
        &self,
        ctx: &dyn KeyContext,
        present: &[u32],
        out: &mut Party,
    ) -> Result<()> {
        if self.group.t() < 2 {
            *out = self.combine(ctx, present)?;
            return Ok(());
        }
        let (present, lambdas) = self.lagrange_at(ctx, present)?;
        out.secret
            .refill_share_ntt(ctx, |d| self.scale_into(&lambdas, d))?;
        out.index = self.index;
        out.group = Some(self.acting(present));
        out.collective = None;
        Ok(())
    }
}

impl ThresholdSecret {
    /// The parties `present` sorted and checked (at least t members of the group, this one among
    /// them), with this party's Lagrange coefficient modulo each prime of Q u P.
    pub(super) fn lagrange_at(
        &self,
        ctx: &dyn KeyContext,
        present: &[u32],
    ) -> Result<(Vec<u32>, Vec<rnsfhe_math::arith::Shoup>)> {
        crate::rlwe::check_params(
            self.fingerprint,
            ctx.params_fingerprint(),
            "threshold secret",
        )?;
        let present = sorted_parties(present, "the parties present")?;
        let stray: Vec<u32> = present
            .iter()
            .filter(|&&p| !self.group.contains(p))
            .copied()
            .collect();
        if present.len() < self.group.t() || !present.contains(&self.index) || !stray.is_empty() {
            return Err(Error::InvalidParameters(format!(
                "combining party {}'s threshold share among {present:?}: need at least t = {} \
                 members of {:?}, this party among them (strangers: {stray:?})",
                self.index,
                self.group.t(),
                self.group.members
            )));
        }
        if self.share.representation() != Representation::Ntt
            || self.share.montgomery_form() != Form::Plain
        {
            return Err(Error::ContextMismatch(
                "a threshold share is held in plain NTT form".into(),
            ));
        }
        let lambdas = (self.share.context().moduli().iter())
            .map(|q| Ok(q.shoup(lagrange(q, &present, self.index)?)))
            .collect::<Result<Vec<_>>>()?;
        Ok((present, lambdas))
    }

    /// The group of the parties `present` (sorted), with this share's t and epoch.
    fn acting(&self, present: Vec<u32>) -> Group {
        Group {
            t: self.group.t,
            members: present,
            epoch: self.group.epoch,
        }
    }

    /// dst = lambda_j F(x_j) (one Lagrange coefficient per prime), out of place: one read of the
    /// share and one write of the result.
    pub(super) fn scale_into(&self, lambdas: &[rnsfhe_math::arith::Shoup], dst: &mut [u64]) {
        let ring = self.share.context();
        let n = ring.limb_len(Representation::Ntt);
        let limbs = dst
            .chunks_exact_mut(n)
            .zip(self.share.residues().chunks_exact(n));
        for ((dst, src), (q, &w)) in limbs.zip(ring.moduli().iter().zip(lambdas)) {
            rnsfhe_math::arith::vector::mul_shoup_scalar_into(q, src, w, dst);
        }
    }
}

/// lambda_j = prod_{k in T, k != j} x_k / (x_k - x_j) modulo q (Group::point for x).
fn lagrange(q: &rnsfhe_math::arith::Modulus, present: &[u32], j: u32) -> Result<u64> {
    let xj = q.reduce(Group::point(j));
    let (mut num, mut den) = (1u64, 1u64);
    for &k in present.iter().filter(|&&k| k != j) {
        let xk = q.reduce(Group::point(k));
        num = q.mul(num, xk);
        den = q.mul(den, q.sub(xk, xj));
    }
    Ok(q.mul(num, q.inv(den)?))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test
mod tests {
    use super::*;
    use crate::bfv::{BfvContext, BfvParameters};
    use crate::params::Security;

    /// The combined share kept in NTT form is the secret key the coefficient form gives: the same
    /// NTT forms, digest (computed on first use), distribution and exposure bound; its identity
    /// is a hash of its NTT residues.
    #[test]
    fn share_in_ntt_form_is_the_full_key() {
        let params = BfvParameters::builder()
            .degree(1024)
            .plain_modulus(65537)
            .moduli_bits(&[50, 50])
            .special_moduli_bits(&[55])
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap();
        let ctx = BfvContext::new(params).unwrap();
        let ring = ctx.key_switcher().ring_qp();
        let mut rng = Csprng::from_seed([3; 32]);
        let data = rng.uniform_poly(ring.moduli(), ring.degree());
        let p = Poly::from_residues(ring, data, Representation::Ntt).unwrap();
        let full = SecretKey::share_from_poly(&*ctx, &p).unwrap();
        let lazy = SecretKey::share_from_ntt(&*ctx, p.clone()).unwrap();
        assert_eq!(lazy.ntt_qp().residues(), full.ntt_qp().residues());
        assert_eq!(lazy.ntt_q().residues(), full.ntt_q().residues());
        assert_eq!(lazy.digest().unwrap(), full.digest().unwrap());
        // The identity of an NTT-form share: a hash of its NTT residues, the same for the same
        // share, another for another share (no fallback value).
        let again = SecretKey::share_from_ntt(&*ctx, p.clone()).unwrap();
        let mut other = p;
        other.residues_mut()[0] ^= 1;
        let other = SecretKey::share_from_ntt(&*ctx, other).unwrap();
        assert_eq!(lazy.id(), again.id());
        assert_ne!(lazy.id(), other.id());
        assert_ne!(lazy.id(), full.id());
        assert_eq!(lazy.distribution(), full.distribution());
        assert_eq!(lazy.coefficients(), None);
        assert_eq!(full.coefficients(), None);
        let coeff = Poly::from_residues(
            ring,
            vec![1; ring.moduli().len() * 1024],
            Representation::Coefficient,
        )
        .unwrap();
        assert!(SecretKey::share_from_ntt(&*ctx, coeff).is_err());
    }
}
