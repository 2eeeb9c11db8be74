//! Encrypted logistic-regression training by Nesterov's accelerated gradient descent (Cheon et al. (SAC 2018)
//! section 5.3, after its reference \[28]): the whole data set in one ciphertext, the sigmoid replaced by
//! its least-squares cubic on [-8, 8].
//!
//! Layout: n samples of f features (bias included) padded to R x F powers of two, row-major in R F
//! slots: slot i F + j holds z_ij = y_i x_ij (y in {-1, 1}, x_i0 = 1). The weights are replicated in
//! every row. One iteration (6 levels): t = Z (.) v, summed within rows and masked to slot i F, copied
//! back along the row; a = (alpha / n) sigma(-t) by the cubic; g = a (.) Z summed over rows;
//! beta' = v + g; v' = (1 - eta) beta' + eta beta. [`train_plain`] runs the same arithmetic in f64.

use crate::ckks::{CkksCiphertext, CkksContext, Complex};
use crate::rlwe::{GaloisKeys, RelinKey};
use crate::{Error, Result};

/// Levels one training iteration consumes.
pub const LEVELS_PER_ITERATION: usize = 6;

/// The least-squares fit sigma(x) ~ 1/2 + c1 x + c3 x^3 on [-8, 8] (odd part, by the normal
/// equations on a fine grid): returns (c1, c3).
pub fn sigmoid_cubic() -> (f64, f64) {
    let (mut s11, mut s13, mut s33, mut b1, mut b3) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for k in -4000..=4000 {
        let x = k as f64 / 500.0;
        let r = 1.0 / (1.0 + (-x).exp()) - 0.5;
        let (x1, x3) = (x, x * x * x);
        s11 += x1 * x1;
        s13 += x1 * x3;
        s33 += x3 * x3;
        b1 += x1 * r;
        b3 += x3 * r;
    }
    let det = s11 * s33 - s13 * s13;
    ((b1 * s33 - b3 * s13) / det, (s11 * b3 - s13 * b1) / det)
}

/// Learning rate alpha_t = 10 / (t + 1) and Nesterov's eta_t = (1 - lambda_t) / lambda_{t+1} with
/// lambda_0 = 0, lambda_{t+1} = (1 + sqrt(1 + 4 lambda_t^2)) / 2 (as in \[28]).
pub fn schedule(iterations: usize) -> Vec<(f64, f64)> {
    let mut lambda = 0.0f64;
    (0..iterations)
        .map(|t| {
            let next = (1.0 + (1.0 + 4.0 * lambda * lambda).sqrt()) / 2.0;
            let after = (1.0 + (1.0 + 4.0 * next * next).sqrt()) / 2.0;
            let eta = (1.0 - next) / after;
            lambda = next;
            (10.0 / (t as f64 + 1.0), eta)
        })
        .collect()
}

/// The padded shape (R, F) for n samples of f features.
pub fn layout(n: usize, f: usize) -> (usize, usize) {
    (n.next_power_of_two(), f.next_power_of_two())
}

/// Packs rows z_i (each of f values) into R F slots (zero padding).
pub fn pack(z: &[Vec<f64>]) -> Result<Vec<f64>> {
    let f = z.first().map_or(0, Vec::len);
    if f == 0 || z.iter().any(|r| r.len() != f) {
        return Err(Error::InvalidParameters(
            "logistic regression: rows must be non-empty and of equal length".into(),
        ));
    }
    let (r, fp) = layout(z.len(), f);
    let mut out = vec![0.0; r * fp];
    for (i, row) in z.iter().enumerate() {
        out[i * fp..i * fp + f].copy_from_slice(row);
    }
    Ok(out)
}

/// The same training in f64 (the reference for the encrypted run): returns the f weights.
pub fn train_plain(z: &[Vec<f64>], iterations: usize) -> Vec<f64> {
    let f = z.first().map_or(0, Vec::len);
    let n = z.len() as f64;
    let (c1, c3) = sigmoid_cubic();
    let (mut beta, mut v) = (vec![0.0; f], vec![0.0; f]);
    for (alpha, eta) in schedule(iterations) {
        let mut g = vec![0.0; f];
        for row in z {
            let t: f64 = row.iter().zip(&v).map(|(a, b)| a * b).sum();
            let a = alpha / n * (0.5 - c1 * t - c3 * t * t * t);
            g.iter_mut().zip(row).for_each(|(gj, zj)| *gj += a * zj);
        }
        let new: Vec<f64> = v.iter().zip(&g).map(|(a, b)| a + b).collect();
        v = new
            .iter()
            .zip(&beta)
            .map(|(b1, b0)| (1.0 - eta) * b1 + eta * b0)
            .collect();
        beta = new;
    }
    beta
}

/// The rotation steps the encrypted training needs for an R x F layout.
pub fn rotation_steps(r: usize, f: usize) -> Vec<i64> {
    let mut steps = Vec::new();
    let mut s = 1;
    while s < f {
        steps.push(s as i64);
        steps.push(-(s as i64));
        s *= 2;
    }
    let mut s = f;
    while s < r * f {
        steps.push(s as i64);
        s *= 2;
    }
    steps
}

/// c0 + c1 t + c3 t^3 in depth 2 with output scale exactly `target`: t^2 and c3 t in parallel, then
/// their product; c1 t alongside (constants chosen so every addition meets equal scales).
fn odd_cubic(
    ctx: &CkksContext,
    t: &CkksCiphertext,
    (c0, c1, c3): (f64, f64, f64),
    target: f64,
    rlk: &RelinKey,
) -> Result<CkksCiphertext> {
    let t2 = ctx.multiply_rescale(t, t, rlk)?;
    let q = ctx.ring_at(t2.level())?.moduli()[t2.level()].value() as f64;
    let c3t = ctx.mul_const_rescale_to(t, c3, target * q / t2.scale())?;
    let cubic = ctx.multiply_rescale(&c3t, &t2, rlk)?;
    let cubic = ctx.set_scale(&cubic, target)?;
    let lin = ctx.mul_const_rescale_to(t, c1, target)?;
    let lin = ctx.drop_to_level_keeping_scale(&lin, cubic.level())?;
    ctx.add_const(&ctx.add(&cubic, &lin)?, c0)
}

/// Trains on the encrypted packed data `z` (R F slots, from [`pack`]) of `n` samples and `f`
/// features; returns the encrypted weights (replicated in every row, so slot j holds beta_j).
/// Needs 6 levels per iteration (and one spare) and the rotation keys of [`rotation_steps`].
///
/// Scales: v, beta, t and g stay on the chain's scale of their levels
/// ([`CkksContext::scale_at`]); the sigmoid's output a is at the scale that makes a (.) Z rescale onto
/// the chain (the chain's own scale when z is on it, as from the default encoding).
pub fn train_logistic(
    ctx: &CkksContext,
    z: &CkksCiphertext,
    n: usize,
    f: usize,
    iterations: usize,
    rlk: &RelinKey,
    keys: &GaloisKeys,
) -> Result<CkksCiphertext> {
    let t = Trainer::new(ctx, z, n, f, rlk, keys)?;
    let need = LEVELS_PER_ITERATION
        .saturating_mul(iterations)
        .saturating_add(1);
    if need > z.level() {
        return Err(Error::InvalidParameters(format!(
            "{iterations} iterations need {need} levels, the data ciphertext has {}",
            z.level()
        )));
    }
    let (mut beta, mut v) = t.start()?;
    for step in schedule(iterations) {
        (beta, v) = t.iteration(&beta, &v, step)?;
    }
    Ok(beta)
}

/// The bound on |beta_j| and |v_j| that [`train_logistic_refreshed`] assumes: the pair travels
/// through the bootstrap as (v + i beta) / WEIGHT_BOUND, inside the unit square EvalMod is made for.
pub const WEIGHT_BOUND: f64 = 8.0;

/// [`train_logistic`] for any number of iterations: before an iteration that the weights' levels no
/// longer allow, `refresh` (a bootstrap) brings them back up. beta and v travel in one ciphertext,
/// p = (v + i beta) / [`WEIGHT_BOUND`] (one level), so each refresh is one bootstrap; after it
/// v = (B/2) (p + conj p) (an integer product: no level) and beta = -i (B/2) (p - conj p) (one
/// level). The refreshed v needs 7 levels (an iteration and the packing): a bootstrap whose residual
/// levels are at least 7. Needs the conjugation key besides [`rotation_steps`]' keys; calls
/// `progress(done, total)` after each iteration. Give `z` at the bootstrap's output level: the levels
/// above it hold scales near their wide primes, where the iteration's constants do not fit a word.
#[allow(clippy::too_many_arguments)]
pub fn train_logistic_refreshed(
    ctx: &CkksContext,
    z: &CkksCiphertext,
    n: usize,
    f: usize,
    iterations: usize,
    rlk: &RelinKey,
    keys: &GaloisKeys,
    refresh: &mut dyn FnMut(&CkksCiphertext) -> Result<CkksCiphertext>,
    mut progress: Option<&mut dyn FnMut(usize, usize)>,
) -> Result<CkksCiphertext> {
    let t = Trainer::new(ctx, z, n, f, rlk, keys)?;
    let (mut beta, mut v) = t.start()?;
    let half = (WEIGHT_BOUND / 2.0) as i64;
    let slots = z.slots();
    let times = |c: Complex| vec![c; slots];
    for (done, step) in schedule(iterations).into_iter().enumerate() {
        if v.level() < LEVELS_PER_ITERATION + 1 {
            let vb = ctx.mul_const_auto(&v, 1.0 / WEIGHT_BOUND)?;
            let ib = ctx.mul_values_auto(&beta, &times(Complex::new(0.0, 1.0 / WEIGHT_BOUND)))?;
            let p = refresh(&ctx.add(&vb, &ib)?)?;
            let pc = ctx.conjugate(&p, keys)?;
            if p.level() < LEVELS_PER_ITERATION + 1 {
                return Err(Error::LevelsExhausted {
                    op: "logistic training: the refreshed weights (an iteration and the packing)"
                        .into(),
                    level: p.level(),
                    needed: LEVELS_PER_ITERATION + 1,
                });
            }
            v = ctx.mul_integer(&ctx.add(&p, &pc)?, half)?;
            let diff = ctx.sub_auto(&p, &pc)?;
            beta = ctx.mul_values_auto(&diff, &times(Complex::new(0.0, -(half as f64))))?;
        }
        (beta, v) = t.iteration(&beta, &v, step)?;
        if let Some(p) = progress.as_mut() {
            p(done + 1, iterations);
        }
    }
    Ok(beta)
}

/// One training run's constants: the data, its layout, the row mask and the sigmoid's cubic.
pub(crate) struct Trainer<'a> {
    pub(crate) ctx: &'a CkksContext,
    z: &'a CkksCiphertext,
    n: usize,
    fp: usize,
    slots: usize,
    mask: Vec<Complex>,
    cubic: (f64, f64),
    pub(crate) rlk: &'a RelinKey,
    pub(crate) keys: &'a GaloisKeys,
}

impl<'a> Trainer<'a> {
    /// Checks the layout of `z` for `n` x `f`.
    pub(crate) fn new(
        ctx: &'a CkksContext,
        z: &'a CkksCiphertext,
        n: usize,
        f: usize,
        rlk: &'a RelinKey,
        keys: &'a GaloisKeys,
    ) -> Result<Self> {
        let (r, fp) = layout(n.min(ctx.slots()), f.min(ctx.slots()));
        if n > ctx.slots() || f > ctx.slots() || z.slots() != r * fp {
            return Err(Error::InvalidParameters(format!(
                "the data ciphertext holds {} slots, the layout needs R F = {}",
                z.slots(),
                r * fp
            )));
        }
        let mask = (0..r * fp)
            .map(|s| Complex::from_real(if s % fp == 0 { 1.0 } else { 0.0 }))
            .collect();
        Ok(Trainer {
            ctx,
            z,
            n,
            fp,
            slots: r * fp,
            mask,
            cubic: sigmoid_cubic(),
            rlk,
            keys,
        })
    }

    /// beta = v = 0 at the data's level.
    pub(crate) fn start(&self) -> Result<(CkksCiphertext, CkksCiphertext)> {
        let ctx = self.ctx;
        let zeros = vec![Complex::from_real(0.0); self.slots];
        let beta = ctx.encrypt_trivial(&zeros, self.z.level(), ctx.scale_at(self.z.level())?)?;
        Ok((beta.clone(), beta))
    }

    /// One iteration from (beta, v) with step (alpha, eta): the next (beta, v), 6 levels below v.
    pub(crate) fn iteration(
        &self,
        beta: &CkksCiphertext,
        v: &CkksCiphertext,
        (alpha, eta): (f64, f64),
    ) -> Result<(CkksCiphertext, CkksCiphertext)> {
        let (ctx, z, fp, rlk, keys) = (self.ctx, self.z, self.fp, self.rlk, self.keys);
        let (c1, c3) = self.cubic;
        // t_i = z_i . v in slot i F, copied along the row.
        let zl = ctx.drop_to_level(z, v.level())?;
        let mut t = ctx.multiply_rescale(&zl, v, rlk)?;
        let mut s = 1;
        while s < fp {
            let rot = ctx.rotate(&t, s as i64, keys)?;
            ctx.add_assign(&mut t, &rot)?;
            s *= 2;
        }
        t = ctx.mul_values_auto(&t, &self.mask)?;
        let mut s = 1;
        while s < fp {
            let rot = ctx.rotate(&t, -(s as i64), keys)?;
            ctx.add_assign(&mut t, &rot)?;
            s *= 2;
        }
        // a_i = (alpha / n) sigma(-t_i), then g = sum over rows of a (.) Z.
        // a's scale is chosen so that g = a (.) Z lands on the chain's scale exactly.
        let k = alpha / self.n as f64;
        let a_level = t.level() - 2;
        let zl = ctx.drop_to_level(z, a_level)?;
        let q = ctx.ring_at(a_level)?.moduli()[a_level].value() as f64;
        let a_scale = ctx.scale_at(a_level - 1)? * q / zl.scale();
        let a = odd_cubic(ctx, &t, (k * 0.5, -k * c1, -k * c3), a_scale, rlk)?;
        let mut g = ctx.multiply_rescale(&a, &zl, rlk)?;
        let mut s = fp;
        while s < self.slots {
            let rot = ctx.rotate(&g, s as i64, keys)?;
            ctx.add_assign(&mut g, &rot)?;
            s *= 2;
        }
        let vl = ctx.drop_to_level(v, g.level())?;
        let new_beta = ctx.add(&vl, &g)?;
        let old = ctx.drop_to_level_keeping_scale(beta, new_beta.level())?;
        let s = ctx.scale_at(new_beta.level() - 1)?;
        let mut next_v = ctx.mul_const_rescale_to(&new_beta, 1.0 - eta, s)?;
        let momentum = ctx.mul_const_rescale_to(&old, eta, s)?;
        ctx.add_assign(&mut next_v, &momentum)?;
        let beta = ctx.drop_to_level(&new_beta, next_v.level())?;
        Ok((beta, next_v))
    }
}
