//! [`EvaluationKeySet`]: the evaluation keys of one key pair (a relinearisation key and any number
//! of Galois keys), merged and looked up by Galois element.

use std::sync::Arc;

use super::KeyId;
use crate::rlwe::{GaloisKeys, KeySwitchKey, RelinKey};
use crate::{Error, Result};

/// The evaluation keys of one key pair of one parameter set: an optional relinearisation key and
/// the Galois keys of any number of elements, merged from several [`GaloisKeys`] (Lattigo's
/// `MemEvaluationKeySet`). The first key sets the pair and the parameters; a key of another pair or
/// other parameters is refused. Keys are shared by `Arc`, never copied.
///
/// ```
/// use rnsfhe::ckks::{CkksContext, CkksParameters};
/// use rnsfhe::params::Security;
/// use rnsfhe::rlwe::EvaluationKeySet;
/// use rnsfhe_math::sample::Csprng;
///
/// # fn main() -> rnsfhe::Result<()> {
/// let params = CkksParameters::builder()
///     .degree(1024)
///     .levels(1)
///     .security(Security::InsecureResearchOnly)
///     .build()?;
/// let ctx = CkksContext::new(params)?;
/// let mut rng = Csprng::from_seed([1; 32]);
/// let (sk, _) = ctx.keygen(&mut rng)?;
/// let mut set = EvaluationKeySet::new();
/// set.add_galois_keys(&ctx.galois_keys(&sk, &[1], false, &mut rng)?)?;
/// set.add_galois_keys(&ctx.galois_keys(&sk, &[2], false, &mut rng)?)?;
/// let g = ctx.encoder().rotation_galois_element(2);
/// assert!(set.galois_key(g).is_ok());
/// assert!(set.relin_key().is_err());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct EvaluationKeySet {
    /// (fingerprint, key pair) of the keys, set by the first one.
    owner: Option<(u64, KeyId)>,
    relin: Option<Arc<RelinKey>>,
    galois: Option<Arc<GaloisKeys>>,
}

impl EvaluationKeySet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// The key pair and the parameter fingerprint of the keys (`None` while empty).
    pub fn owner(&self) -> Option<(u64, KeyId)> {
        self.owner
    }

    /// The identity of the key pair (`None` while empty).
    pub fn id(&self) -> Option<KeyId> {
        self.owner.map(|(_, id)| id)
    }

    /// Checks that a key of parameters `fp` and pair `id` may join, and sets the owner if empty.
    fn adopt(&mut self, fp: u64, id: KeyId, what: &str) -> Result<()> {
        match self.owner {
            None => {
                self.owner = Some((fp, id));
                Ok(())
            }
            Some((f, i)) => {
                super::check_params(fp, f, what)?;
                if i != id {
                    return Err(Error::KeyMismatch {
                        what: format!("the {what} (left) joining a key set (right)"),
                        left: id,
                        right: i,
                    });
                }
                Ok(())
            }
        }
    }

    /// Sets (or replaces) the relinearisation key.
    pub fn set_relin_key(&mut self, rlk: Arc<RelinKey>) -> Result<()> {
        self.adopt(rlk.fingerprint(), rlk.id(), "relinearisation key")?;
        self.relin = Some(rlk);
        Ok(())
    }

    /// Replaces the Galois keys by `gk` (the elements held before and not in `gk` are dropped).
    pub fn set_galois_keys(&mut self, gk: Arc<GaloisKeys>) -> Result<()> {
        self.adopt(gk.fingerprint(), gk.id(), "Galois keys")?;
        self.galois = Some(gk);
        Ok(())
    }

    /// Adds the Galois keys of `gk` to those held (duplicates are fine; the keys are shared).
    pub fn add_galois_keys(&mut self, gk: &GaloisKeys) -> Result<()> {
        self.adopt(gk.fingerprint(), gk.id(), "Galois keys")?;
        let merged = match &self.galois {
            Some(held) => {
                let mut m = GaloisKeys::clone(held);
                m.merge(gk)?;
                m
            }
            None => gk.clone(),
        };
        self.galois = Some(Arc::new(merged));
        Ok(())
    }

    /// The relinearisation key, or a `MissingKey` error.
    pub fn relin_key(&self) -> Result<&Arc<RelinKey>> {
        self.relin.as_ref().ok_or_else(|| {
            Error::MissingKey(format!(
                "no relinearisation key in the key set{}; generate one with relin_key",
                self.pair_text()
            ))
        })
    }

    /// All Galois keys held (for the contexts' rotations), or a `MissingKey` error when none.
    pub fn galois_keys(&self) -> Result<&Arc<GaloisKeys>> {
        self.galois.as_ref().ok_or_else(|| {
            Error::MissingKey(format!(
                "no Galois keys in the key set{}; generate them with galois_keys",
                self.pair_text()
            ))
        })
    }

    /// The Galois key of element g (mod m, as the contexts' `galois_element` methods give it), or
    /// a `MissingGaloisKey` error naming the element.
    pub fn galois_key(&self, g: u64) -> Result<&KeySwitchKey> {
        match &self.galois {
            Some(gk) => gk.get(g),
            None => Err(Error::MissingGaloisKey {
                element: g,
                step: None,
            }),
        }
    }

    /// The Galois elements with a key, in increasing order.
    pub fn galois_elements(&self) -> Vec<u64> {
        self.galois.as_ref().map_or_else(Vec::new, |g| g.elements())
    }

    fn pair_text(&self) -> String {
        self.id()
            .map_or_else(String::new, |id| format!(" of key pair {id}"))
    }
}
