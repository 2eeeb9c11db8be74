//! A key-switching key to and from bytes, as relinearisation keys, Galois keys, evaluation key sets
//! and switching keys (`keys`, `switching_keys`) write it: its layout (format 6), its level (format
//! 5), its component count, then each component's k0 (over q_0..q_l and P) and the seed of its k1,
//! or its k1 in full.

use super::{Reader, Writer};
use crate::rlwe::{KeySwitchKey, KeySwitcher, KeySwitching};
use crate::{Error, Result};

/// The top bit of a key's component count (format 5): each k0 is followed by its k1 in full
/// instead of a seed (a key whose k1 is no seed's expansion: the collective relinearisation key).
const EXPLICIT_K1: u32 = 1 << 31;

impl Writer {
    /// The layout of a key-switching key (format 6): digit primes, omega bits (0: none), truncation.
    pub(super) fn key_layout(&mut self, l: KeySwitching) {
        self.u32(l.digit_primes as u32);
        self.u32(l.omega_bits.unwrap_or(0));
        self.u32(l.truncation as u32);
    }
    /// A key-switching key: its layout (format 6), its level (format 5), its component count, then each component's k0
    /// (over q_0..q_l and P) and the seed of its k1 (or, count flagged [`EXPLICIT_K1`], its k1).
    pub(super) fn key_switch_key(&mut self, k: &KeySwitchKey) {
        self.key_layout(k.layout());
        self.u32(k.level() as u32);
        if !k.is_seeded() {
            self.u32(k.components() as u32 | EXPLICIT_K1);
            for (k0, k1) in k.parts() {
                self.poly(k0);
                self.poly(k1);
            }
            return;
        }
        self.u32(k.components() as u32);
        for (k0, seed) in k.k0().iter().zip(k.seeds()) {
            self.poly(k0);
            self.bytes(seed);
        }
    }
}

impl Reader<'_> {
    /// A key written by [`Writer::key_switch_key`] over `sw`; before format 5, a top-level key
    /// without its level.
    pub(super) fn key_switch_key(&mut self, sw: &KeySwitcher) -> Result<KeySwitchKey> {
        let layout = self.key_layout()?;
        let level = if self.version() >= 5 {
            self.key_level(sw)?
        } else {
            sw.top_level()
        };
        check_layout(layout, sw, level)?;
        self.key_switch_body(sw, level)
    }

    /// A key-switching key's layout written by [`Writer::key_layout`]; `None` before format 6.
    pub(super) fn key_layout(&mut self) -> Result<Option<KeySwitching>> {
        if self.version() < 6 {
            return Ok(None);
        }
        Ok(Some(KeySwitching {
            digit_primes: self.u32()? as usize,
            omega_bits: Some(self.u32()?).filter(|&w| w != 0),
            truncation: self.u32()? as usize,
        }))
    }

    /// A key's level, checked against `sw` (within its chain, the top for truncated keys).
    pub(super) fn key_level(&mut self, sw: &KeySwitcher) -> Result<usize> {
        let level = self.u32()? as usize;
        sw.key_ring(0, level)
            .map_err(|e| Error::Malformed(format!("a key-switching key at level {level}: {e}")))?;
        Ok(level)
    }

    /// A key's components at `level` over `sw`.
    pub(super) fn key_switch_body(
        &mut self,
        sw: &KeySwitcher,
        level: usize,
    ) -> Result<KeySwitchKey> {
        let raw = self.u32()?;
        let explicit = self.version() >= 5 && raw & EXPLICIT_K1 != 0;
        let count = (if explicit { raw & !EXPLICIT_K1 } else { raw }) as usize;
        let expected = sw.key_components_at(level);
        if count != expected {
            return Err(Error::Malformed(format!(
                "a key of {count} components at level {level}, this parameter set uses {expected}"
            )));
        }
        if explicit {
            let mut pairs = Vec::with_capacity(count);
            for c in 0..count {
                let ring = sw.key_ring(c, level)?;
                pairs.push((self.poly(ring)?, self.poly(ring)?));
            }
            return KeySwitchKey::from_pairs_at(sw, pairs, level);
        }
        let (mut k0, mut seeds) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for c in 0..count {
            // A truncated component is stored without its zero limbs (Bajard et al. (SAC 2016) section 4.6).
            k0.push(self.poly(sw.key_ring(c, level)?)?);
            seeds.push(self.seed()?);
        }
        KeySwitchKey::from_parts_at(sw, k0, seeds, level)
    }
}

/// Refuses a key-switching key of layout `found` (`None`: bytes before format 6, which did not
/// record it) at `level` for switcher `sw`: a recorded layout must be `sw`'s; an unrecorded one is
/// taken as `sw`'s only where no other layout makes keys of that shape (as many components over the
/// same rings), since a key of another gadget loads and switches to garbage.
pub(super) fn check_layout(
    found: Option<KeySwitching>,
    sw: &KeySwitcher,
    level: usize,
) -> Result<()> {
    let ours = sw.layout();
    match found {
        Some(l) => l.check(&ours, "key-switching key in these bytes"),
        None => {
            let others = sw.layouts_of_same_shape(level);
            if others.is_empty() {
                return Ok(());
            }
            let show: Vec<String> = others.iter().take(4).map(|l| format!("{l:?}")).collect();
            Err(Error::Malformed(format!(
                "these key bytes (format version 5 or older) do not record their key-switching \
                 layout, and keys of this shape at level {level} are also made by other layouts \
                 ({}{}) than this context's {ours:?}: loading could give a key of another gadget. \
                 Write the key again with this version from the context that made it, or make a \
                 new key",
                show.join(", "),
                if others.len() > 4 { ", ..." } else { "" }
            )))
        }
    }
}
