//! fastRNSFloor with x_B and the output in the image of a linear map T per modulus of B (the
//! negacyclic NTT: ModDown of key switching in NTT form, Cheon et al. (SAC 2018) Alg. 2), limb by
//! limb: each task converts one limb of B, applies T while the limb is in cache and adds the terms
//! that are already in T's image, so that several polynomials' limbs share one fan-out.

use super::fast::dot_row;
use super::floor::{check, max_modulus};
use super::FastRnsFloor;
use crate::arith::vector;
use crate::parallel::{self, Work};
use crate::{Error, Result};

/// What the transformed floor adds to x_B in coefficient form.
#[derive(Clone, Copy, Debug)]
pub enum FloorAddend<'a> {
    /// Residues in B, in [0, m): |B| n words in a [`FloorJob`], the limb's n words in a
    /// [`FloorLimb`].
    Residues(&'a [u64]),
    /// (row, offset): n words e + offset for small signed e, the same in every modulus of B (each
    /// word below every modulus; [`FastRnsFloor::small_addend_row`] forms it). The row enters the
    /// FastBconv sum as one row shared by every limb of B, and -offset f q^-1 joins the rounding
    /// constant: the same bits as the residues of e.
    Shared(&'a [u64], u64),
}

impl<'a> FloorAddend<'a> {
    /// The addend's words for limb j of B, n words a limb.
    fn limb(self, j: usize, n: usize) -> FloorAddend<'a> {
        match self {
            FloorAddend::Residues(a) => FloorAddend::Residues(&a[j * n..(j + 1) * n]),
            shared => shared,
        }
    }

    /// The length the addend must have for `limbs` limbs of n words.
    fn expected_len(self, limbs: usize, n: usize) -> usize {
        match self {
            FloorAddend::Residues(_) => limbs * n,
            FloorAddend::Shared(..) => n,
        }
    }

    fn words(self) -> &'a [u64] {
        match self {
            FloorAddend::Residues(a) | FloorAddend::Shared(a, _) => a,
        }
    }
}

/// One polynomial of [`FastRnsFloor::apply_transformed_jobs`].
#[derive(Debug)]
pub struct FloorJob<'a> {
    /// The scaled residues of x_q: every limb of x_q through [`FastRnsFloor::scale_source_limb`]
    /// (k n words).
    pub y: &'a [u64],
    /// x_B in the image of T (|B| n words, in [0, m)).
    pub xb_t: &'a [u64],
    /// An addend of x_B in coefficient form: the floor of x + a.
    pub xb_add: Option<FloorAddend<'a>>,
    /// Added to the output in T's image before the gather (|B| n words, in [0, m)).
    pub add: Option<&'a [u64]>,
    /// The output in T's image (|B| n words).
    pub out: &'a mut [u64],
}

/// One limb of B of a polynomial's floor ([`FastRnsFloor::transformed_limb`]): the limbs of x_B in
/// T's image, of x_B's coefficient-form addend, and of the addend after T (n words each, in [0, m)).
#[derive(Clone, Copy, Debug)]
pub struct FloorLimb<'a> {
    pub xb_t: &'a [u64],
    pub xb_add: Option<FloorAddend<'a>>,
    pub add: Option<&'a [u64]>,
}

/// The inputs of a [`FloorJob`], without its output.
struct Inputs<'a> {
    y: &'a [u64],
    xb_t: &'a [u64],
    xb_add: Option<FloorAddend<'a>>,
    add: Option<&'a [u64]>,
}

impl FastRnsFloor {
    /// [`FastRnsFloor::apply`] with x_B and the output in the image of a linear map T per modulus of B
    /// (the negacyclic NTT; `to_t(j, limb)` applies it modulo the j-th modulus of B):
    /// T(out) = T(x_B) f q^-1 + T(FastBconv part + half f q^-1). The same bits as
    /// T(apply(xq, T^-1(x_B))), without T^-1; `xq` in coefficient form, inputs in [0, m).
    pub fn apply_transformed<F>(
        &self,
        xq: &[u64],
        xb_t: &[u64],
        out: &mut [u64],
        to_t: F,
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        self.transformed(xq, xb_t, None, out, to_t, None)
    }

    /// [`FastRnsFloor::apply_transformed`] followed, limb by limb while the limb is in cache, by the
    /// sum with `add` (|B| n residues in the image of T, in [0, m)) and the gather
    /// out\[i\] <- out\[idx\[i\]\] (a permutation of n entries, the same for every limb): the same bits as
    /// the three steps one after another (a Galois automorphism in NTT form after a ModDown, without
    /// a full-size intermediate). Errors: `idx` not of n entries below n, `add` of another length.
    pub fn apply_transformed_gathered<F>(
        &self,
        xq: &[u64],
        xb_t: &[u64],
        out: &mut [u64],
        to_t: F,
        add: Option<&[u64]>,
        idx: &[u32],
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        self.transformed(xq, xb_t, None, out, to_t, Some((idx, add)))
    }

    /// [`FastRnsFloor::apply_transformed`] for x_B = T^-1(xb_t) + `xb_add` (`xb_add` in coefficient
    /// form, |B| n residues): T(out) = T(x_B) f q^-1 + T(FastBconv part + (half + xb_add) f q^-1),
    /// the same bits as T(apply(xq, T^-1(xb_t) + xb_add)). Public-key encryption adds its error e this
    /// way to a product kept in NTT form, without an inverse and a forward NTT on the limbs of B.
    pub fn apply_transformed_plus<F>(
        &self,
        xq: &[u64],
        xb_t: &[u64],
        xb_add: &[u64],
        out: &mut [u64],
        to_t: F,
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        check("fastRNSFloor addend in B", xb_add.len(), xb_t.len())?;
        let addend = FloorAddend::Residues(xb_add);
        self.transformed(xq, xb_t, Some(addend), out, to_t, None)
    }

    /// [`FastRnsFloor::apply_transformed_plus`] for an addend of small signed integers e, the same in
    /// every modulus of B (|e\[i]| <= `bound`): the same bits as `apply_transformed_plus` with the
    /// residues of e, without them. The n words e + bound enter the FastBconv sum as one row shared
    /// by every modulus of B, and -bound f q^-1 joins the rounding constant (public-key encryption's
    /// error, drawn once for all the moduli). Errors: e of other than n entries, an entry beyond
    /// `bound`, or 2 bound not below every modulus of B.
    pub fn apply_transformed_plus_small<F>(
        &self,
        xq: &[u64],
        xb_t: &[u64],
        e: &[i64],
        bound: u64,
        out: &mut [u64],
        to_t: F,
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        let n = self.lengths(xq.len(), xb_t.len(), out.len())?;
        check("fastRNSFloor small addend", e.len(), n)?;
        // Every word written by `small_addend_row`.
        let mut row = crate::pool::Buffer::stale(n);
        self.small_addend_row(e, bound, &mut row)?;
        let addend = FloorAddend::Shared(&row, bound);
        self.transformed(xq, xb_t, Some(addend), out, to_t, None)
    }

    /// The shared row of [`FloorAddend::Shared`] for small signed e (|e\[i]| <= `bound`): row\[i] =
    /// e\[i] + bound, in [0, 2 bound]. Errors: `row` not of e's length, an entry beyond `bound`, or
    /// 2 bound not below every modulus of B.
    pub fn small_addend_row(&self, e: &[i64], bound: u64, row: &mut [u64]) -> Result<()> {
        check("fastRNSFloor small addend row", row.len(), e.len())?;
        if self.b.moduli().iter().any(|m| bound >= m.value() / 2) {
            return Err(Error::OutOfRange(format!(
                "small addend bound {bound} not below half of every modulus of B"
            )));
        }
        let mut within = true;
        for (r, &x) in row.iter_mut().zip(e) {
            within &= x.unsigned_abs() <= bound;
            *r = x.wrapping_add(bound as i64) as u64;
        }
        if within {
            Ok(())
        } else {
            Err(Error::OutOfRange(format!(
                "small addend beyond its bound {bound}"
            )))
        }
    }

    /// The transformed floor of one polynomial: its scaled residues, then one job.
    fn transformed<F>(
        &self,
        xq: &[u64],
        xb_t: &[u64],
        xb_add: Option<FloorAddend<'_>>,
        out: &mut [u64],
        to_t: F,
        gather: Option<(&[u32], Option<&[u64]>)>,
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        let (_, y) = self.scaled_input(xq, xb_t.len(), out.len())?;
        let job = FloorJob {
            y: &y,
            xb_t,
            xb_add,
            add: gather.and_then(|(_, a)| a),
            out,
        };
        self.apply_transformed_jobs(vec![job], to_t, gather.map(|(idx, _)| idx))
    }

    /// The transformed floor of several polynomials in one fan-out over (polynomial, limb of B): per
    /// job, T(out) = T(x_B) f q^-1 + T(FastBconv(y) + (half + xb_add) f q^-1) + add, then, with `idx`,
    /// the gather out\[i\] <- out\[idx\[i\]\] in every limb. Each limb is converted, transformed and
    /// finished by one task while it is in cache. The same bits as [`FastRnsFloor::apply_transformed`]
    /// (or `_plus`, `_gathered`) of each job on its own, for any thread count. Errors: lengths that do
    /// not match the bases, a gather table not of n entries below n.
    pub fn apply_transformed_jobs<F>(
        &self,
        jobs: Vec<FloorJob<'_>>,
        to_t: F,
        idx: Option<&[u32]>,
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()> + Sync + Send,
    {
        let Some(first) = jobs.first() else {
            return Ok(());
        };
        let n = first.out.len() / self.b.len().max(1);
        let mut inputs = Vec::with_capacity(jobs.len());
        let mut outs = Vec::with_capacity(jobs.len());
        for job in jobs {
            let len = n * self.b.len();
            check("fastRNSFloor output", job.out.len(), len)?;
            check("fastRNSFloor input in q", job.y.len(), n * self.q.len())?;
            check("fastRNSFloor input in B", job.xb_t.len(), len)?;
            if let Some(a) = job.xb_add {
                let want = a.expected_len(self.b.len(), n);
                check("fastRNSFloor addend in B", a.words().len(), want)?;
            }
            if let Some(a) = job.add {
                check("fastRNSFloor addend after T", a.len(), len)?;
            }
            inputs.push(Inputs {
                y: job.y,
                xb_t: job.xb_t,
                xb_add: job.xb_add,
                add: job.add,
            });
            outs.push(job.out);
        }
        if let Some(idx) = idx {
            check("gather table", idx.len(), n)?;
            if idx.iter().any(|&i| i as usize >= n) {
                return Err(Error::OutOfRange(
                    "gather table entry beyond the limb".into(),
                ));
            }
        }
        // One task per (job, limb of B): the conversion, T and the sums of the limb; scratch: the
        // converted limb and, with a gather, the sum that is gathered from.
        parallel::for_each_array_limb(Work::Heavy, outs, n, 2 * n, |a, j, o, s| {
            let inp = &inputs[a];
            let r = j * n..(j + 1) * n;
            let limb = FloorLimb {
                xb_t: &inp.xb_t[r.clone()],
                xb_add: inp.xb_add.map(|x| x.limb(j, n)),
                add: inp.add.map(|x| &x[r]),
            };
            self.transformed_limb(j, inp.y, limb, &to_t, idx, o, s)
        })
    }

    /// Limb j of B of [`FastRnsFloor::apply_transformed_jobs`] for one polynomial: its scaled
    /// residues `y` (k n words), the limb's terms, T, and the gather `idx` (checked by the caller:
    /// n entries below n), into `out` (n words); `scratch` holds 2 n words. For a task that makes
    /// x_B's limb itself (a key product) and finishes the floor while it is in cache.
    #[allow(clippy::too_many_arguments)] // one limb's inputs, its output and its scratch
    pub fn transformed_limb<F>(
        &self,
        j: usize,
        y: &[u64],
        limb: FloorLimb<'_>,
        to_t: &F,
        idx: Option<&[u32]>,
        out: &mut [u64],
        scratch: &mut [u64],
    ) -> Result<()>
    where
        F: Fn(usize, &mut [u64]) -> Result<()>,
    {
        let n = out.len();
        let k = self.q.len();
        let m = self.b.moduli().get(j).ok_or_else(|| {
            Error::OutOfRange(format!("limb {j} of a floor to {} moduli", self.b.len()))
        })?;
        check("fastRNSFloor scratch", scratch.len().min(2 * n), 2 * n)?;
        check("fastRNSFloor input in q", y.len(), k * n)?;
        for (what, len) in [
            ("fastRNSFloor limb in B", Some(limb.xb_t.len())),
            (
                "fastRNSFloor addend in B",
                limb.xb_add.map(|a| a.words().len()),
            ),
            ("fastRNSFloor addend after T", limb.add.map(<[u64]>::len)),
        ] {
            check(what, len.unwrap_or(n), n)?;
        }
        let own = self.own[j];
        let (t, u) = scratch[..2 * n].split_at_mut(n);
        // The FastBconv part with the half and x_B's addend, times f q^-1 (coefficient form); a
        // shared row's offset times f q^-1 taken off the constant.
        let half = self.half.as_ref().map_or(0, |(_, hb)| m.mul(hb[j], own));
        let constant = match limb.xb_add {
            Some(FloorAddend::Shared(_, offset)) => m.sub(half, m.mul(m.reduce(offset), own)),
            _ => half,
        };
        dot_row(
            m,
            (y, n, 0),
            &self.consts[j * k..(j + 1) * k],
            max_modulus(&self.q),
            limb.xb_add.map(|a| (a.words(), own)),
            constant,
            t,
        );
        to_t(j, t)?;
        let w = m.shoup(own);
        match idx {
            None => {
                vector::mul_shoup_scalar_add_into(m, limb.xb_t, w, t, out);
                if let Some(x) = limb.add {
                    vector::add_assign(m, out, x);
                }
            }
            // The sum into u (the same words: the sum of two residues does not depend on their
            // order), then gathered into the limb.
            Some(idx) => {
                vector::mul_shoup_scalar_add_into(m, limb.xb_t, w, t, u);
                if let Some(x) = limb.add {
                    vector::add_assign(m, u, x);
                }
                for (d, &i) in out.iter_mut().zip(idx) {
                    *d = u[i as usize];
                }
            }
        }
        Ok(())
    }
}
