//! Keys at a level: a key at level l holds the components of the digits that meet q_0..q_l, each
//! over Q_l u P ([`Levels::ring_qp_at`]); at the top, over Q u P less its truncated columns. Which
//! components, rings and limb slots a key of a level has, and the restriction of the secrets to
//! them.

use super::*;

impl KeySwitcher {
    /// The key-switching layout.
    pub fn layout(&self) -> KeySwitching {
        self.layout
    }

    /// The gadget of `layout` at `level` over these moduli: each digit that meets q_0..q_level as
    /// (first prime, end, omega bits where they split the digit's first prime, else 0). Layouts of
    /// one gadget make the same keys there.
    fn gadget_at(&self, layout: KeySwitching, level: usize) -> Vec<(usize, usize, u32)> {
        let bits = |i: usize| self.ring_qp().moduli()[i].bits();
        (0..=level.min(self.k - 1))
            .step_by(layout.digit_primes.max(1))
            .map(|s| {
                let w = layout.omega_bits.filter(|&w| w < bits(s)).unwrap_or(0);
                (s, (s + layout.digit_primes).min(level + 1), w)
            })
            .collect()
    }

    /// The other valid layouts whose keys at `level` have the shape of this switcher's (as many
    /// components, over the same rings) but another gadget: the layouts a key written without its
    /// layout (byte formats before 6) may have been made for. Empty when the shape decides.
    pub fn layouts_of_same_shape(&self, level: usize) -> Vec<KeySwitching> {
        let special = self.ring_qp().moduli().len() - self.k;
        // A truncated key's shape (its components lack their zero limbs) is its layout's alone.
        if self.layout.truncation > 0 {
            return Vec::new();
        }
        let bits = |i: usize| self.ring_qp().moduli()[i].bits();
        // A key has one component per omega sub-digit of each digit of the gadget.
        let count = |g: &[(usize, usize, u32)]| -> usize {
            g.iter()
                .map(|&(s, _, w)| {
                    if w == 0 {
                        1
                    } else {
                        bits(s).div_ceil(w) as usize
                    }
                })
                .sum()
        };
        let ours = self.gadget_at(self.layout, level);
        let omegas = std::iter::once(None).chain((1..=30).map(Some));
        let candidates = (1..=self.k).flat_map(|d| {
            omegas.clone().map(move |w| KeySwitching {
                digit_primes: d,
                omega_bits: w,
                truncation: 0,
            })
        });
        candidates
            .filter(|l| l.validate(self.k, special).is_ok())
            .filter(|&l| {
                let g = self.gadget_at(l, level);
                count(&g) == count(&ours) && g != ours
            })
            .collect()
    }

    /// The top level k - 1 (the level of a key made over all of Q u P).
    pub fn top_level(&self) -> usize {
        self.k - 1
    }

    /// The number of components of a key at `level`: those of the digits that meet q_0..q_level (a
    /// digit above the level is never decomposed there).
    pub fn key_components_at(&self, level: usize) -> usize {
        self.digits
            .iter()
            .zip(&self.subdigits)
            .filter(|(r, _)| r.start <= level)
            .map(|(_, &c)| c)
            .sum()
    }

    /// Refuses a key level above the chain, and a lower one for truncated key columns (their
    /// factors q_I span the whole chain, Bajard et al. (SAC 2016) section 4.6).
    pub(super) fn check_key_level(&self, level: usize) -> Result<()> {
        if level >= self.k {
            return Err(Error::LevelOutOfRange {
                op: "a key-switching key's level".into(),
                level,
                max: self.k - 1,
            });
        }
        if level + 1 < self.k && self.layout.truncation > 0 {
            return Err(Error::InvalidParameters(format!(
                "key-switching keys below the top level need truncation 0 (got {})",
                self.layout.truncation
            )));
        }
        Ok(())
    }

    /// The ring component `c` of a key at `level` is stored over: [`Self::component_ring`] at the
    /// top, Q_level u P ([`Levels::ring_qp_at`]) below.
    pub fn key_ring(&self, c: usize, level: usize) -> Result<&Arc<RingContext>> {
        self.check_key_level(level)?;
        if level + 1 < self.k {
            return self.ring_qp_at(level);
        }
        self.component_ring(c)
            .ok_or_else(|| Error::Internal(format!("key component {c} beyond the layout")))
    }

    /// The ring a key at `level` is computed over before its zero limbs are dropped (Q u P at the
    /// top, Q_level u P below), with the indices in Q u P of its limbs.
    pub(super) fn work_ring(&self, level: usize) -> Result<(&Arc<RingContext>, Vec<usize>)> {
        self.check_key_level(level)?;
        Ok((self.ring_qp_at(level)?, self.limbs_at(level)))
    }

    /// The slot of limb i of Q u P in component `c` of a key at `level` (none where it is zero).
    #[inline]
    pub(super) fn key_slot(&self, level: usize, c: usize, i: usize) -> Option<usize> {
        if level + 1 == self.k {
            return self
                .components
                .get(c)
                .and_then(|(_, s)| s.get(i).copied().flatten());
        }
        if i <= level {
            Some(i)
        } else if i >= self.k {
            Some(level + 1 + i - self.k)
        } else {
            None
        }
    }

    /// x over Q u P restricted to the limbs of Q_level u P (representation and Montgomery label
    /// kept; x itself when already there): what a key at `level` needs of the secrets.
    pub fn restrict_qp<'a>(&self, x: &'a Poly, level: usize) -> Result<Cow<'a, Poly>> {
        let (ring, limbs) = self.work_ring(level)?;
        if Arc::ptr_eq(x.context(), ring) {
            return Ok(Cow::Borrowed(x));
        }
        if !Arc::ptr_eq(x.context(), self.ring_qp()) {
            return Err(Error::ContextMismatch(
                "restriction to a level: the polynomial is not over Q u P".into(),
            ));
        }
        Ok(Cow::Owned(select_limbs(x, ring, &limbs)?))
    }
}

/// The limbs `slots` of x (in that order) as a polynomial over `ring`, representation and
/// Montgomery label kept.
pub(crate) fn select_limbs(x: &Poly, ring: &Arc<RingContext>, slots: &[usize]) -> Result<Poly> {
    let len = x.context().limb_len(x.representation());
    let res = x.residues();
    let mut data = Vec::with_capacity(slots.len() * len);
    for &i in slots {
        let limb = res.get(i * len..(i + 1) * len).ok_or_else(|| {
            Error::Internal(format!("limb {i} beyond a polynomial being restricted"))
        })?;
        data.extend_from_slice(limb);
    }
    let mut out = Poly::from_residues(ring, data, x.representation())?;
    if x.montgomery_form() == Form::Montgomery {
        out.relabel_form(Form::Montgomery)?;
    }
    Ok(out)
}
