//! [`EncapsulationKeys`]: the two switching keys of sparse-secret encapsulation (Bossuat,
//! Troncoso-Pastoriza and Hubaux, "Bootstrapping for approximate homomorphic encryption with
//! negligible failure-probability by using sparse-secret encapsulation", ACNS 2022).
//!
//! Scheme-independent: both keys are [`SwitchingKey`]s of the RLWE layer; CKKS bootstrapping
//! applies them with `CkksContext::switch_key` around ModRaise.

use super::{KeyGenerator, SecretDistribution, SecretKey, SwitchingKey};
use crate::{Error, Result};

/// The key pair of sparse-secret encapsulation: before ModRaise, the level-0 ciphertext under the
/// dense secret s is switched to an ephemeral sparse secret s' (Hamming weight h, e.g. 32), so that
/// the integer polynomial I(X) of ModRaise, whose size grows with ||s'||_1, stays small and the
/// bootstrapping's failure probability negligible; after ModRaise it is switched back to s at the
/// top level.
///
/// # What is published, and why it is secure
///
/// - `dense_to_sparse` (level 0): RLWE samples (b_j, a_j) = (-a_j s' + e_j + P' g_j s, a_j) under
///   the **sparse** secret s', at the modulus q_0 P' only, P' the longest prefix of the special
///   primes that the security gate admits for s' ([`crate::params::SPARSE_ESTIMATES`]: h >= 32 at
///   n >= 2^16 up to log2(q_0 P') = 121, estimated 2^171.9 by the lattice estimator's
///   bdd_mitm_hybrid; h >= 128 up to 300 bits, 2^326.9). A ciphertext at level 0 lives modulo q_0,
///   so nothing larger is needed; every other use of s' is refused by its exposure bound
///   ([`SecretKey::max_log_modulus`]): it has no public key, no relinearisation or Galois key, no
///   symmetric encryption and no switching key to it above q_0 P'.
/// - `sparse_to_dense` (top level): samples (-a_j s + e_j + P g_j s', a_j) under the **dense**
///   secret s at the full modulus Q P, as secure as the parameters' own evaluation keys (ternary
///   secret, the HE-standard bound); s' is only their message. The two keys encrypt each secret
///   under the other: a circular-security assumption of the same kind as every relinearisation key
///   (s^2 under s).
///
/// The sparse secret is drawn fresh for each pair and dropped (zeroised) after key generation, so
/// no other key ever shares it.
///
/// # The pitfall Lattigo fixed in v6.1.1
///
/// Lattigo up to v6.1.0 generated the dense-to-sparse key with the key generator of the full
/// bootstrapping parameters (`kgenDense.GenEvaluationKeyNew(skDense, skSparse)`,
/// `circuits/ckks/bootstrapping/keys.go`), so the key lived over the whole Q P (about 1550 bits at
/// N = 2^16): RLWE samples under the h = 32 secret at a modulus where sparse secrets offer nothing
/// (hybrid attacks recover s' from such instances), and with s' the key itself reveals s (its
/// limbs of P give e_j = b_j + a_j s', then P g_j s = b_j + a_j s' - e_j on q_j). v6.1.1
/// (CHANGELOG: "the evaluation key for switching from dense to sparse key must be generated at
/// the lowest level") makes it with `kgenSparse`, whose parameters are `Q[:1]` and `P[:1]`. Here the
/// key's modulus is not a convention of the caller: [`KeyGenerator::switching_key`] chooses the
/// modulus from the target secret's exposure bound and refuses one that would exceed it, so the
/// full-modulus key cannot be made at a standard security level (tested in `tests/keys_levels.rs`).
#[derive(Clone, Debug)]
pub struct EncapsulationKeys {
    dense_to_sparse: SwitchingKey,
    sparse_to_dense: SwitchingKey,
    hamming_weight: usize,
}

impl EncapsulationKeys {
    /// The key from the dense secret to the sparse one, at level 0 over q_0 and P'.
    pub fn dense_to_sparse(&self) -> &SwitchingKey {
        &self.dense_to_sparse
    }

    /// The key from the sparse secret back to the dense one, at the top level.
    pub fn sparse_to_dense(&self) -> &SwitchingKey {
        &self.sparse_to_dense
    }

    /// The Hamming weight h of the ephemeral sparse secret.
    pub fn hamming_weight(&self) -> usize {
        self.hamming_weight
    }

    /// The pair of two switching keys (e.g. loaded from bytes): the first from a secret to a
    /// sparse one at level 0, the second back at a level of at least the first's.
    pub fn from_keys(dense_to_sparse: SwitchingKey, sparse_to_dense: SwitchingKey) -> Result<Self> {
        let hamming_weight = match dense_to_sparse.to_distribution() {
            SecretDistribution::HammingWeight(h) => h,
            SecretDistribution::Ternary => {
                return Err(Error::InvalidParameters(
                    "encapsulation keys switch to a sparse secret (HammingWeight(h))".into(),
                ))
            }
        };
        if dense_to_sparse.to_id() != sparse_to_dense.from_id()
            || dense_to_sparse.from_id() != sparse_to_dense.to_id()
            || dense_to_sparse.fingerprint() != sparse_to_dense.fingerprint()
        {
            return Err(Error::KeyMismatch {
                what: "encapsulation keys: the second key must switch back from the first's \
                       target (left: its source, right: the first's target)"
                    .into(),
                left: sparse_to_dense.from_id(),
                right: dense_to_sparse.to_id(),
            });
        }
        if dense_to_sparse.level() != 0 {
            return Err(Error::LevelOutOfRange {
                op: "encapsulation keys: the dense-to-sparse key is for level 0".into(),
                level: dense_to_sparse.level(),
                max: 0,
            });
        }
        Ok(EncapsulationKeys {
            dense_to_sparse,
            sparse_to_dense,
            hamming_weight,
        })
    }
}

impl KeyGenerator<'_> {
    /// The encapsulation keys of `sk` with a fresh sparse secret of Hamming weight `h`
    /// ([`EncapsulationKeys`]; the sparse secret is dropped after use).
    pub fn encapsulation_keys(&mut self, sk: &SecretKey, h: usize) -> Result<EncapsulationKeys> {
        let sparse = self.secret_key_with(SecretDistribution::HammingWeight(h))?;
        self.encapsulation_keys_with(sk, &sparse)
    }

    /// [`Self::encapsulation_keys`] with a given sparse secret (tests decrypt under it).
    pub fn encapsulation_keys_with(
        &mut self,
        sk: &SecretKey,
        sparse: &SecretKey,
    ) -> Result<EncapsulationKeys> {
        if sparse.id() == sk.id() {
            return Err(Error::InvalidParameters(
                "encapsulation keys need a sparse secret other than the secret key".into(),
            ));
        }
        let top = self.top_level();
        EncapsulationKeys::from_keys(
            self.switching_key(sk, sparse, 0)?,
            self.switching_key(sparse, sk, top)?,
        )
    }
}
