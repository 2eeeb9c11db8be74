//! The forms of a [`SecretKey`]: its NTT forms over Q and Q u P, its coefficient residues, its small
//! signed coefficients and norms, and its digest and identity.

use super::*;

/// The signed coefficients of a plain coefficient-form polynomial when every coefficient is one
/// integer in all limbs (its centred residue modulo the first prime agrees with every other limb),
/// else `None`. No branch on the residues: centring and agreement are masks, folded over every
/// limb.
pub(super) fn small_coefficients(s: &Poly) -> Option<Zeroizing<Vec<i64>>> {
    let ring = s.context();
    let n = ring.degree();
    let res = s.residues();
    let moduli = ring.moduli();
    let q0 = moduli[0].value();
    let mut coeffs = Zeroizing::new(vec![0i64; n]);
    let mut disagree = 0u64;
    for (j, c) in coeffs.iter_mut().enumerate() {
        let a = res[j];
        // a > q0 / 2: the top bit of q0/2 - a (residues are below 2^62).
        let above = (q0 >> 1).wrapping_sub(a) >> 63;
        let v = a as i64 - (above.wrapping_neg() & q0) as i64;
        let negative = (v >> 63) as u64;
        for (i, m) in moduli.iter().enumerate().skip(1) {
            // |v| mod q_i; the limb holds it for v >= 0, and q_i - it (or 0 with it) for v < 0.
            let r = m.reduce(v.unsigned_abs());
            let x = res[i * n + j];
            let sum = x + r;
            let neg_ok = u64::from(sum == 0) | u64::from(sum == m.value());
            let ok = (negative & neg_ok) | (!negative & u64::from(x == r));
            disagree |= ok ^ 1;
        }
        *c = v;
    }
    (disagree == 0).then_some(coeffs)
}

impl SecretKey {
    /// s (plain coefficient form over Q u P) in NTT form over Q and over Q u P of `sw`.
    pub(super) fn ntt_pair(sw: &KeySwitcher, s: &Poly) -> (Result<Poly>, Result<Poly>) {
        let k = sw.ring_q().moduli().len();
        let n = sw.ring_q().degree();
        let s_q = Poly::from_residues(
            sw.ring_q(),
            s.residues()[..k * n].to_vec(),
            Representation::Coefficient,
        )
        .map_err(Error::from)
        .and_then(ntt_form);
        let s_qp = Poly::from_residues(
            sw.ring_qp(),
            s.residues().to_vec(),
            Representation::Coefficient,
        )
        .map_err(Error::from)
        .and_then(ntt_form);
        (s_q, s_qp)
    }

    /// The same secret (identity, fingerprint) over the rings of another key switcher of the same
    /// moduli: FV's mixed strategy keeps its relinearisation key over a Montgomery ring (Bajard et al. (SAC 2017)
    /// section 4.4).
    pub(crate) fn on_switcher(&self, sw: &KeySwitcher) -> Result<Self> {
        let mut s = Poly::from_residues(
            sw.ring_qp(),
            self.residues_qp()?.to_vec(),
            Representation::Coefficient,
        )?;
        let (s_q, s_qp) = Self::ntt_pair(sw, &s);
        s.residues_mut().zeroize();
        Ok(SecretKey {
            coeffs: self.coeffs.clone(),
            s_q: OnceLock::from(s_q?),
            s_qp: s_qp?,
            ring_q: Arc::clone(sw.ring_q()),
            digest: self.digest.clone(),
            fingerprint: self.fingerprint,
            id: OnceLock::from(self.id()),
            distribution: self.distribution,
            max_log_modulus: self.max_log_modulus,
        })
    }

    /// s's plain coefficient-form residues over Q u P (limb-major), e.g. to store or share it.
    pub fn residues_qp(&self) -> Result<Zeroizing<Vec<u64>>> {
        let mut p = match self.s_qp.montgomery_form() {
            Form::Plain => self.s_qp.clone(),
            Form::Montgomery => self.s_qp.from_montgomery()?,
        };
        p.to_coefficient()?;
        let out = Zeroizing::new(p.residues().to_vec());
        p.residues_mut().zeroize();
        Ok(out)
    }

    /// The identity of this key pair. Every key has it from its making, but a share made in NTT
    /// form (`share_from_ntt`), whose identity is a hash of its NTT residues, computed on
    /// first use: a hash of words that cannot fail (no transform back to coefficients).
    pub fn id(&self) -> KeyId {
        *self.id.get_or_init(|| {
            let d = digest_of(NTT_DIGEST, self.fingerprint, self.s_qp.residues());
            KeyId::of_secret_digest(self.fingerprint, &d)
        })
    }

    /// The fingerprint of the parameters this key belongs to.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The signed coefficients of s when they are small (ternary, a sum of secrets); `None` for a
    /// secret given by residues that are no small integers (a share uniform mod Q u P).
    pub fn coefficients(&self) -> Option<&[i64]> {
        self.coeffs.as_deref().map(|c| &c[..])
    }

    /// The norms of s when its coefficients are small (`None` otherwise: no noise bound through
    /// ||s|| holds for a uniform s).
    pub fn norm(&self) -> Option<SecretNorm> {
        let c = self.coefficients()?;
        let l1 = c.iter().map(|&x| x.unsigned_abs() as f64).sum();
        let l2 = c
            .iter()
            .map(|&x| (x as f64) * (x as f64))
            .sum::<f64>()
            .sqrt();
        let linf = c.iter().map(|&x| x.unsigned_abs()).max().unwrap_or(0);
        Some(SecretNorm { l1, l2, linf })
    }

    /// The PRF key of the canonical public keys (never leaves the crate).
    pub(crate) fn digest(&self) -> Result<&[u8; 32]> {
        if let Some(d) = self.digest.get() {
            return Ok(d);
        }
        let d = digest_of(COEFF_DIGEST, self.fingerprint, &self.residues_qp()?);
        Ok(&**self.digest.get_or_init(|| d))
    }

    /// s in NTT form over Q.
    pub fn ntt_q(&self) -> &Poly {
        self.s_q.get_or_init(|| {
            // Only a share made in plain NTT form over Q u P starts without it: its first limbs.
            let mut s = Poly::zero(&self.ring_q, Representation::Ntt);
            let len = s.residues().len();
            s.residues_mut()
                .copy_from_slice(&self.s_qp.residues()[..len]);
            s
        })
    }

    /// s in NTT form over `ring`, a level of Q (its first moduli, the same NTT tables): the
    /// decryptions at a level of CKKS and BGV and BFV's switched one.
    pub fn ntt_at(&self, ring: &Arc<RingContext>) -> Result<Poly> {
        let residues = self.ntt_residues_at(ring)?;
        Poly::from_fill(ring, Representation::Ntt, |s| {
            s.copy_from_slice(residues);
            Ok(())
        })
    }

    /// The residues of [`Self::ntt_at`] (limb-major, over `ring`'s moduli), borrowed from s over Q
    /// without a copy.
    pub(crate) fn ntt_residues_at(&self, ring: &Arc<RingContext>) -> Result<&[u64]> {
        let own = &self.ring_q;
        let k = ring.moduli().len();
        let len = ring.limb_len(Representation::Ntt);
        if k > own.moduli().len()
            || ring.moduli() != &own.moduli()[..k]
            || len != own.limb_len(Representation::Ntt)
        {
            return Err(Error::ContextMismatch(
                "the secret key's modulus Q does not start with this ring's moduli".into(),
            ));
        }
        Ok(&self.ntt_q().residues()[..k * len])
    }

    /// s in NTT form over Q u P.
    pub fn ntt_qp(&self) -> &Poly {
        &self.s_qp
    }

    /// The ring context of Q this key belongs to.
    pub fn ring(&self) -> &Arc<RingContext> {
        &self.ring_q
    }

    /// Ok when the key is of parameters `fingerprint` and over `ring` (a context's ring Q; equal
    /// parameters share their rings, `crate::rlwe::Levels`).
    pub(crate) fn check_owner(&self, fingerprint: u64, ring: &Arc<RingContext>) -> Result<()> {
        super::super::id::check_params(self.fingerprint, fingerprint, "secret key")?;
        if Arc::ptr_eq(self.ring(), ring) {
            return Ok(());
        }
        Err(Error::ContextMismatch(
            "the secret key is of these parameters but over other ring tables (another reduction \
             method); move it through bytes"
                .into(),
        ))
    }
}
