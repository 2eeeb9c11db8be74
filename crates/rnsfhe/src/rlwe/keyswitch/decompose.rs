//! Step 1 of key switching: the digits of d and their extension to Q_l u P (ModUp), limb by limb in
//! NTT form. [`KeySwitcher::decompose`] keeps every limb's digits ([`Decomposed`], Lattigo's
//! `DecomposeNTT`) so that any number of keys can use them (hoisting: Halevi and Shoup, "Faster
//! homomorphic linear transformations in HElib", CRYPTO 2018, section 5; Bossuat, Troncoso-Pastoriza
//! and Hubaux, Eurocrypt 2021, section 3.2); [`KeySwitcher::switch_to`] computes one limb's digits at
//! a time and uses them at once.

use std::borrow::Cow;

use super::*;

/// One digit's extension at one level from the digit's primes to the other limbs.
#[derive(Debug)]
pub(super) struct ModUp {
    pub(super) conv: Extension,
    /// Limb indices (in Q u P) of the converter's target, in order.
    pub(super) limbs: Vec<usize>,
}

/// How a digit of several primes is extended. Power-of-two rings: exactly and centred (HPS), the
/// digit in (-Q_j/2, Q_j/2] as the centred lift of a one-prime digit. FastBconv's digit in
/// [0, k Q_j) has a mean near Q_j/2, whose all-ones pattern times the key's error does not spread
/// as noise but peaks in the canonical embedding at the roots nearest 1 (slot 0, 5^j = -3): CKKS
/// bootstrapping's packed slots lost up to 3 bits there, and the error of a key switch
/// was 65 per coefficient (rms) instead of 10 (N = 2^11, three-prime digits). General-m rings
/// (their own reductions and layouts) keep FastBconv.
#[derive(Debug)]
pub(super) enum Extension {
    /// Halevi-Polyakov-Shoup: exact, centred.
    Centred(HpsConverter),
    /// FastBconv: the digit plus a multiple of Q_j below k Q_j.
    Fast(FastBaseConverter),
}

/// A digit's extension, made before the limbs' tasks: the converted limbs (FastBconv), or the k + 1
/// rows of `HpsConverter::prepare` from which each limb's task converts its own limb.
pub(super) enum Up {
    Converted(Buffer),
    Prepared(Buffer),
}

/// One row of a limb's digits: key component `part`, digit j, sub-digit b.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub(super) part: usize,
    pub(super) j: usize,
    pub(super) b: usize,
}

/// A polynomial d at level l ready for its digits: its residues in coefficient form (unless no
/// digit reads them), in NTT form when given so (its own digits' limbs are taken from there), and
/// the ModUp of every digit of several primes.
pub(super) struct DigitSource<'a> {
    pub(super) level: usize,
    /// Coefficient form, (l + 1) n words; `None` when every digit is read from `ntt` and `ups`.
    coeffs: Option<Cow<'a, Poly>>,
    /// The input's NTT form, when it came so.
    ntt: Option<&'a [u64]>,
    /// ups[j]: the extension of digit j to the limbs of its `ModUp` (digits of several primes only).
    ups: Vec<Option<Up>>,
}

/// Words of a column chunk of the HPS correction rows (one task each).
const CORRECTION_CHUNK: usize = 4096;

/// The digits of one polynomial d at level l, each extended to every limb of Q_l u P and in NTT
/// form (Lattigo's `DecomposeNTT`): the part of key switching that does not depend on the key, paid
/// once for any number of keys ([`KeySwitcher::gadget_product`]).
///
/// Power-of-two rings (any digit layout: RNS digits of one or several primes, omega digits,
/// truncated key columns). General Phi_m rings key-switch one key at a time ([`KeySwitcher::switch`]).
pub struct Decomposed {
    pub(super) level: usize,
    /// The ring of Q_l u P of the switcher that made it.
    pub(super) ring: Arc<RingContext>,
    /// Per limb slot of Q_l u P (q_0..q_l, then P): `rows` rows of n words, the digits' extensions
    /// to the limb, in NTT form; `used[slot]` names the digit and key component of each row.
    pub(super) ext: Buffer,
    pub(super) rows: usize,
    pub(super) used: Vec<Vec<Row>>,
}

impl std::fmt::Debug for Decomposed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decomposed")
            .field("level", &self.level)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl Decomposed {
    /// The level l of the decomposed polynomial.
    pub fn level(&self) -> usize {
        self.level
    }
}

impl KeySwitcher {
    /// Checks that d lies over a level of this chain; returns the level.
    pub(super) fn level_of_input(&self, d: &Poly) -> Result<usize> {
        let level = d.context().moduli().len().wrapping_sub(1);
        if !self
            .ring_at(level)
            .is_some_and(|r| Arc::ptr_eq(r, d.context()))
        {
            return Err(Error::ContextMismatch(
                "key switching input is not over a level of this context's modulus chain".into(),
            ));
        }
        Ok(level)
    }

    /// The limbs of Q_l u P (indices in Q u P): q_0..q_l, then P.
    pub(super) fn limbs_at(&self, level: usize) -> Vec<usize> {
        (0..=level)
            .chain(self.k..self.ring_qp().moduli().len())
            .collect()
    }

    /// d ready for its digits: the level (an error off the chain), the coefficient form, and the
    /// ModUp (exact, centred: [`ModUp`]) of every digit of several primes.
    pub(super) fn digit_source<'a>(&self, d: &'a Poly) -> Result<DigitSource<'a>> {
        let level = self.level_of_input(d)?;
        let ctx = self.ring_qp();
        let n = ctx.degree();
        let centred = |j: usize| match &self.modup[level][j] {
            Some(ModUp {
                conv: Extension::Centred(c),
                ..
            }) => Some(c),
            _ => None,
        };
        let active: Vec<usize> = (0..self.digits.len())
            .filter(|&j| self.digits[j].start <= level)
            .collect();
        // An NTT-form input whose every digit has an exact ModUp: each digit's limbs leave the NTT
        // form straight into the conversion's rows, one limb per task, and no coefficient form of
        // the whole input is made (the digits' own limbs come from the NTT form).
        if d.representation() == Representation::Ntt
            && ctx.limb_len(Representation::Ntt) == n
            && self.layout.omega_bits.is_none()
            && active.iter().all(|&j| centred(j).is_some())
        {
            return self.prepared_source(d, level);
        }
        let (coeffs, ntt) = if d.representation() == Representation::Coefficient {
            (Cow::Borrowed(d), None)
        } else {
            let mut c = d.clone();
            c.to_coefficient()?;
            (Cow::Owned(c), Some(d.residues()))
        };
        let x = coeffs.residues();
        let ups = parallel::map(self.digits.len(), x.len() * self.digits.len(), |j| {
            match (&self.modup[level][j], &self.digits[j]) {
                (Some(up), r) => {
                    let src = &x[r.start * n..(r.end.min(level + 1)) * n];
                    match &up.conv {
                        Extension::Centred(c) => {
                            // `prepare` writes every word.
                            let mut rows = Buffer::stale(src.len() + n);
                            c.prepare(src, &mut rows).map(|()| Some(Up::Prepared(rows)))
                        }
                        Extension::Fast(c) => {
                            // The conversion writes every word.
                            let mut out = Buffer::stale(up.limbs.len() * n);
                            c.convert(src, &mut out).map(|()| Some(Up::Converted(out)))
                        }
                    }
                }
                (None, _) => Ok(None),
            }
        })?;
        Ok(DigitSource {
            level,
            coeffs: Some(coeffs),
            ntt,
            ups,
        })
    }

    /// [`KeySwitcher::digit_source`] of an NTT-form input whose every digit has an exact ModUp:
    /// per limb of d (one task each) the inverse NTT into the row of its digit and the row's scaling
    /// (`HpsConverter::scale_limb`), then the correction rows by column chunks; the same rows as
    /// `HpsConverter::prepare` of the coefficient form.
    fn prepared_source<'a>(&self, d: &'a Poly, level: usize) -> Result<DigitSource<'a>> {
        let n = self.ring_qp().degree();
        let ring = d.context();
        let x = d.residues();
        let mut bufs: Vec<Option<(usize, usize, Buffer)>> = (0..self.digits.len())
            .map(|j| {
                let r = &self.digits[j];
                let own = r.end.min(level + 1).saturating_sub(r.start);
                // Every row is written below: the own limbs, then the correction.
                (own > 0).then(|| (r.start, own, Buffer::stale((own + 1) * n)))
            })
            .collect();
        let conv = |j: usize| match &self.modup[level][j] {
            Some(ModUp {
                conv: Extension::Centred(c),
                ..
            }) => Ok(c),
            _ => Err(Error::Internal(format!("digit {j} has no exact ModUp"))),
        };
        let mut rows = Vec::new();
        let mut which = Vec::new();
        for (j, b) in bufs.iter_mut().enumerate() {
            if let Some((start, own, buf)) = b {
                rows.push(&mut buf[..*own * n]);
                which.push((j, *start));
            }
        }
        parallel::for_each_array_limb(parallel::Work::Heavy, rows, n, 0, |a, r, row, _| {
            let (j, start) = which[a];
            let i = start + r;
            row.copy_from_slice(&x[i * n..(i + 1) * n]);
            ring.inverse_limb(i, row, false)?;
            conv(j)?.scale_limb(r, row);
            Ok::<(), Error>(())
        })?;
        let mut scaled = Vec::new();
        let mut vs = Vec::new();
        for (j, b) in bufs.iter_mut().enumerate() {
            if let Some((_, own, buf)) = b {
                let (r, v) = buf.split_at_mut(*own * n);
                scaled.push((j, &*r));
                vs.push(v);
            }
        }
        let k_max = scaled.iter().map(|(_, r)| r.len() / n).max().unwrap_or(1);
        parallel::for_each_array_limb(
            parallel::Work::Products(k_max),
            vs,
            CORRECTION_CHUNK,
            0,
            |a, c, v, _| {
                let (j, r) = scaled[a];
                let at = c * CORRECTION_CHUNK;
                let rows: Vec<&[u64]> = r
                    .chunks_exact(n)
                    .map(|row| &row[at..at + v.len()])
                    .collect();
                conv(j)?.correction(&rows, v);
                Ok::<(), Error>(())
            },
        )?;
        let ups = bufs
            .into_iter()
            .map(|b| b.map(|(_, _, buf)| Up::Prepared(buf)))
            .collect();
        Ok(DigitSource {
            level,
            coeffs: None,
            ntt: Some(x),
            ups,
        })
    }

    /// The digits of d (over the ring of a level of this chain, either representation; power-of-two
    /// rings) extended to Q_l u P in NTT form: decomposition and ModUp once, for any number of key
    /// products ([`KeySwitcher::gadget_product`]). The rows are those [`KeySwitcher::switch_to`]
    /// computes one limb at a time, so a key product of them is the same bits.
    pub fn decompose(&self, d: &Poly) -> Result<Decomposed> {
        let ctx = self.ring_qp();
        if ctx.limb_len(Representation::Ntt) != ctx.degree() {
            return Err(Error::InvalidParameters(
                "hoisted key switching is for power-of-two rings; general Phi_m rings switch one \
                 key at a time"
                    .into(),
            ));
        }
        let src = self.digit_source(d)?;
        let n = ctx.degree();
        let level = src.level;
        // The digits that meet q_0..q_l: the rows of a key at any level >= l.
        let rows = self.key_components_at(level);
        let limbs = self.limbs_at(level);
        let used: Vec<Vec<Row>> = limbs.iter().map(|&i| self.rows_at(level, i)).collect();
        // Every row a limb uses is written below; the others are never read.
        let mut ext = Buffer::stale(limbs.len() * rows * n);
        parallel::for_each_limb(&mut ext, rows * n, |slot, out| {
            self.extend_limb(&src, limbs[slot], &used[slot], out)
        })?;
        Ok(Decomposed {
            level,
            ring: Arc::clone(self.ring_qp_at(level)?),
            ext,
            rows,
            used,
        })
    }

    /// The digits that reach limb i of Q u P at `level`: all but those above the level and those
    /// whose truncated columns I_j hold i (Bajard et al. (SAC 2016) section 4.6), with their key components.
    pub(super) fn rows_at(&self, level: usize, i: usize) -> Vec<Row> {
        let mut rows = Vec::with_capacity(self.key_components());
        let mut part = 0usize;
        for (j, dig) in self.digits.iter().enumerate() {
            let skip = dig.start > level || self.truncated(j).contains(&i);
            for b in 0..self.subdigits[j] {
                if !skip {
                    rows.push(Row { part, j, b });
                }
                part += 1;
            }
        }
        rows
    }

    /// The digits `rows` of `src` (from [`KeySwitcher::rows_at`]) extended to limb i of Q u P, in
    /// NTT form, into consecutive rows of `ext` (`limb_len(Ntt)` words each).
    pub(super) fn extend_limb(
        &self,
        src: &DigitSource<'_>,
        i: usize,
        rows: &[Row],
        ext: &mut [u64],
    ) -> Result<()> {
        let ctx = self.ring_qp();
        let n = ctx.degree();
        let len = ctx.limb_len(Representation::Ntt);
        for (r, row) in rows.iter().enumerate() {
            let tmp = &mut ext[r * len..(r + 1) * len];
            let dig = &self.digits[row.j];
            match src.ntt {
                // The digit's own limb, already in NTT form (power-of-two rings).
                Some(x) if len == n && self.layout.omega_bits.is_none() && dig.contains(&i) => {
                    tmp.copy_from_slice(&x[i * n..(i + 1) * n]);
                }
                _ => {
                    self.digit_limb(src, (row.j, row.b), i, &mut tmp[..n])?;
                    ctx.forward_limb(i, tmp)?;
                }
            }
        }
        Ok(())
    }

    /// Digit (j, b) of d modulo limb i of Q u P, into `tmp` (coefficient form): the omega-bit window,
    /// the residue itself on the digit's primes, its ModUp elsewhere, or the centred lift of a
    /// one-prime digit.
    #[inline(always)]
    fn digit_limb(
        &self,
        src: &DigitSource<'_>,
        (j, b): (usize, usize),
        i: usize,
        tmp: &mut [u64],
    ) -> Result<()> {
        let ctx = self.ring_qp();
        let n = ctx.degree();
        let m = &ctx.moduli()[i];
        let dig = &self.digits[j];
        let coeffs = || {
            src.coeffs.as_ref().map(|c| c.residues()).ok_or_else(|| {
                Error::Internal(format!(
                    "key switching: digit {j} needs the coefficient form"
                ))
            })
        };
        if let Some(w) = self.layout.omega_bits {
            let own = &coeffs()?[dig.start * n..(dig.start + 1) * n];
            let mask = (1u64 << w) - 1;
            for (o, &x) in tmp.iter_mut().zip(own) {
                *o = m.reduce((x >> (w * b as u32)) & mask);
            }
        } else if dig.contains(&i) {
            tmp.copy_from_slice(&coeffs()?[i * n..(i + 1) * n]);
        } else if let (Some(out), Some(mu)) = (&src.ups[j], &self.modup[src.level][j]) {
            let t = mu.limbs.iter().position(|&l| l == i).ok_or_else(|| {
                Error::Internal(format!(
                    "key switching: limb {i} missing from the ModUp target of digit {j}"
                ))
            })?;
            match (out, &mu.conv) {
                (Up::Prepared(rows), Extension::Centred(c)) => c.convert_row(rows, t, tmp)?,
                (Up::Converted(out), _) => tmp.copy_from_slice(&out[t * n..(t + 1) * n]),
                (Up::Prepared(_), Extension::Fast(_)) => {
                    return Err(Error::Internal(format!(
                        "key switching: digit {j} prepared for another extension"
                    )))
                }
            }
        } else {
            // The centred digit in (-q_j/2, q_j/2]: a digit in [0, q_j) has mean q_j/2, whose
            // all-ones pattern times the key's error is sqrt(n) times larger in the canonical
            // embedding than a centred digit's.
            let own = &coeffs()?[dig.start * n..(dig.start + 1) * n];
            vector::lift_centered(&ctx.moduli()[dig.start], m, own, tmp);
        }
        Ok(())
    }
}
