//! The general-m operations of [`Poly`] (Bajard et al. (SAC 2017)): NTT_N in and out with one reduction modulo Phi_m,
//! products and sums of products, the Montgomery form, and automorphisms X -> X^g, g in Z_m^*.

use super::{Form, Reduction};
use crate::ring::{Poly, Representation};
use crate::{Error, Result};

impl Poly {
    /// Coefficients (n per limb) to NTT_N values (N per limb).
    pub(in crate::ring) fn enter_ntt_general(&mut self) -> Result<()> {
        let ctx = std::sync::Arc::clone(self.context());
        let (n, big_n) = (ctx.degree(), ctx.ntt_size());
        let tables = general_tables(&ctx)?;
        let mut out = crate::pool::zeroed(big_n * ctx.moduli().len());
        let src = self.residues();
        crate::parallel::for_each_limb(&mut out, big_n, |i, limb| {
            tables[i].forward_limb(&src[i * n..(i + 1) * n], limb)
        })?;
        let mform = self.mform;
        self.set_parts(out, Representation::Ntt, mform, false);
        Ok(())
    }

    /// NTT_N values to coefficients, reducing a sum of products modulo Phi_m once.
    pub(in crate::ring) fn leave_ntt_general(&mut self) -> Result<()> {
        let ctx = std::sync::Arc::clone(self.context());
        let (n, big_n) = (ctx.degree(), ctx.ntt_size());
        let tables = general_tables(&ctx)?;
        let product = self.product;
        let mut out = crate::pool::zeroed(n * ctx.moduli().len());
        let src = self.residues();
        crate::parallel::for_each_limb(&mut out, n, |i, o| {
            let mut c_hat = crate::pool::copied(&src[i * big_n..(i + 1) * big_n]);
            let r = tables[i].reduce_limb(&mut c_hat, product, o);
            crate::pool::recycle(c_hat);
            r
        })?;
        let mform = self.mform;
        self.set_parts(out, Representation::Coefficient, mform, false);
        Ok(())
    }

    /// The form of a * b (general m): Plain outside Montgomery rings; there a M * b M -> a b M and
    /// a M * b -> a b. Errors on a product of products or of two plain operands in a Montgomery ring.
    pub(in crate::ring) fn product_form(&self, a: &Poly, b: &Poly) -> Result<Form> {
        if a.product || b.product {
            return Err(Error::WrongForm(
                "mul: an operand is an unreduced product; its product would wrap modulo X^N - 1, convert it to coefficient form first (Bajard et al. (SAC 2017): deg <= 2n - 2 < N)".into(),
            ));
        }
        if self.context().reduction() != Some(Reduction::Montgomery) {
            return Ok(Form::Plain);
        }
        match (a.mform, b.mform) {
            (Form::Montgomery, Form::Montgomery) => Ok(Form::Montgomery),
            (Form::Montgomery, Form::Plain) | (Form::Plain, Form::Montgomery) => Ok(Form::Plain),
            (Form::Plain, Form::Plain) => Err(Error::WrongForm(
                "mul: the ring reduces by Montgomery, which needs an operand in Montgomery form (to_montgomery); plain * plain would give a b M^-1".into(),
            )),
        }
    }

    /// Marks NTT_N values of degree < n as a product (Montgomery rings: times Psi, so that the
    /// reduction by Psi^-1 gives them back).
    pub(in crate::ring) fn promote(&mut self) {
        let ctx = std::sync::Arc::clone(self.context());
        let big_n = ctx.ntt_size();
        if let Some(g) = ctx.general() {
            let (_, data, _) = self.parts_mut();
            for (limb, t) in data.chunks_exact_mut(big_n).zip(g.tables()) {
                t.promote(limb);
            }
        }
        self.product = true;
    }

    /// self op= other when exactly one of them is an unreduced product.
    pub(in crate::ring) fn add_mixed(
        &mut self,
        other: &Poly,
        f: impl Fn(&crate::arith::Modulus, &mut [u64], &[u64]),
    ) -> Result<()> {
        let n = self.context().ntt_size();
        let mut promoted;
        let other = if self.product {
            promoted = other.clone();
            promoted.promote();
            &promoted
        } else {
            self.promote();
            other
        };
        let ctx = std::sync::Arc::clone(self.context());
        let (_, data, _) = self.parts_mut();
        for ((a, b), q) in data
            .chunks_exact_mut(n)
            .zip(other.residues().chunks_exact(n))
            .zip(ctx.moduli())
        {
            f(q, a, b);
        }
        Ok(())
    }

    /// a -> a M mod Phi_m, M = X^(N/2) + 1 (enter the Montgomery form; Montgomery rings only, Bajard et al. (SAC 2017)
    /// section 4). Either representation; the result is in the same one.
    pub fn to_montgomery(&self) -> Result<Poly> {
        self.convert_form(Form::Plain, Form::Montgomery)
    }

    /// a M -> a (leave the Montgomery form).
    pub fn from_montgomery(&self) -> Result<Poly> {
        self.convert_form(Form::Montgomery, Form::Plain)
    }

    /// Relabels the residues as a (`Plain`) or a M (`Montgomery`) without touching them: the value
    /// is multiplied by M^-1 (Plain -> Montgomery) or by M (Montgomery -> Plain). For data computed
    /// outside the form calculus (RNS digits of a M, key-switching outputs, Bajard et al. (SAC 2017) section 4).
    /// Montgomery rings only.
    pub fn relabel_form(&mut self, form: Form) -> Result<()> {
        if self.context().reduction() != Some(Reduction::Montgomery) {
            return Err(Error::WrongForm(
                "relabel_form: this ring does not use Montgomery reduction".into(),
            ));
        }
        self.mform = form;
        Ok(())
    }

    fn convert_form(&self, from: Form, to: Form) -> Result<Poly> {
        let ctx = std::sync::Arc::clone(self.context());
        if ctx.reduction() != Some(Reduction::Montgomery) {
            return Err(Error::WrongForm(
                "this ring does not use Montgomery reduction".into(),
            ));
        }
        if self.mform != from {
            return Err(Error::WrongForm(format!(
                "the polynomial is already in {to:?} form"
            )));
        }
        let form = self.representation();
        let mut src = self.clone();
        src.to_coefficient()?;
        let n = ctx.degree();
        let tables = general_tables(&ctx)?;
        let mut out = Poly::zero(&ctx, Representation::Coefficient);
        let (_, data, _) = out.parts_mut();
        for (i, (o, a)) in data
            .chunks_exact_mut(n)
            .zip(src.residues().chunks_exact(n))
            .enumerate()
        {
            tables[i].convert_montgomery(a, to == Form::Montgomery, o)?;
        }
        out.mform = to;
        if form == Representation::Ntt {
            out.to_ntt()?;
        }
        Ok(out)
    }

    /// X -> X^g modulo Phi_m for g coprime to m (any integer, taken mod m). Coefficient form: X^i ->
    /// X^(ig mod m) and a division by Phi_m; NTT form goes through the coefficients (the NTT_N points
    /// are not permuted by X -> X^g). Montgomery values leave and re-enter the form (M is not fixed).
    pub(in crate::ring) fn automorphism_general(&self, g: i64) -> Result<Poly> {
        let ctx = std::sync::Arc::clone(self.context());
        let m = ctx.cyclotomic_index();
        let g = g.rem_euclid(m as i64) as usize;
        if num_integer::gcd(g, m) != 1 {
            return Err(Error::OutOfRange(format!(
                "automorphism exponent {g} (mod m) is not coprime to m = {m}"
            )));
        }
        if self.mform == Form::Montgomery {
            return self
                .from_montgomery()?
                .automorphism_general(g as i64)?
                .to_montgomery();
        }
        let form = self.representation();
        let mut src = self.clone();
        src.to_coefficient()?;
        let n = ctx.degree();
        let tables = general_tables(&ctx)?;
        let mut out = Poly::zero(&ctx, Representation::Coefficient);
        let (_, data, _) = out.parts_mut();
        for (i, (o, a)) in data
            .chunks_exact_mut(n)
            .zip(src.residues().chunks_exact(n))
            .enumerate()
        {
            tables[i].automorphism_limb(a, g, o);
        }
        if form == Representation::Ntt {
            out.to_ntt()?;
        }
        Ok(out)
    }
}

fn general_tables(
    ctx: &crate::ring::RingContext,
) -> Result<&[std::sync::Arc<super::reduce::ModulusTables>]> {
    ctx.general().map(|g| g.tables()).ok_or_else(|| {
        Error::InvalidParameters("a general-m operation on a power-of-two ring".into())
    })
}
