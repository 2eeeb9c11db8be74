//! Key switching followed by a rescale, in one division: (c_0 + u_0, c_1 + u_1) / q_l for the key
//! switch (u_0, u_1) = ModDown_P(U) of d, computed as round((P c_i + U_i) / (P q_l)) from the
//! key's inner products U over Q_l u P. ModDown divides by P and the rescale by q_l; here q_l is
//! counted among the special primes of one division by D = P q_l, with an exact centred
//! conversion of the dropped limbs (HPS, as the digits' ModUp): one rounding instead of two, and no
//! second pass of NTTs (the rescale's inverse NTT of the last limb and forward NTTs of its lift,
//! per part). The fusion of ModDown with the rescale that follows is that of Jung et al. ("Over 100x
//! Faster Bootstrapping in Fully Homomorphic Encryption through Memory-centric Optimization with
//! GPUs", TCHES 2021, section 4).
//!
//! With x_D the centred residue of x = P c + U modulo D (the limbs q_l and P of x), x - x_D is a
//! multiple of D and (x - x_D) / D = round(x / D) exactly. On a limb q_j of Q_(l-1), in NTT form:
//! ((U_j - [x_D]_(q_j)) P^-1 + c_j) q_l^-1, since P c_j P^-1 = c_j; on the dropped limbs x is U
//! (modulo each prime of P, P c = 0) and U_l + [P]_(q_l) c_l (modulo q_l).

use rnsfhe_math::arith::Shoup;

use super::*;

/// The constants of the fused division at one level l >= 1 (power-of-two rings with special
/// primes).
#[derive(Debug)]
pub(super) struct RescaleDown {
    /// The exact centred conversion from {q_l} u P (in that order) to Q_(l-1).
    conv: HpsConverter,
    /// [P]_(q_l).
    p_mod_ql: Shoup,
    /// Per limb q_j of Q_(l-1): -P^-1 and q_l^-1 modulo q_j.
    minus_p_inv: Vec<Shoup>,
    ql_inv: Vec<Shoup>,
}

impl RescaleDown {
    /// The constants for level `l` >= 1 of `levels` (`None` at level 0, without special primes,
    /// and for general-m rings, whose key switching keeps its separate steps).
    pub(super) fn new(levels: &Levels, l: usize) -> Result<Option<Self>> {
        let qp = levels.ring_qp();
        let k = levels.count();
        if l == 0 || qp.moduli().len() == k || qp.reduction().is_some() {
            return Ok(None);
        }
        let lower = &levels.rings()[l - 1];
        let ql = &qp.moduli()[l];
        let special = &qp.moduli()[k..];
        let dropped: Vec<u64> = std::iter::once(ql)
            .chain(special)
            .map(Modulus::value)
            .collect();
        let p_mod = |m: &Modulus| {
            special
                .iter()
                .fold(1, |acc, p| m.mul(acc, m.reduce(p.value())))
        };
        let mut minus_p_inv = Vec::with_capacity(l);
        let mut ql_inv = Vec::with_capacity(l);
        for m in lower.moduli() {
            minus_p_inv.push(m.shoup(m.neg(m.inv(p_mod(m))?)));
            ql_inv.push(m.shoup(m.inv(m.reduce(ql.value()))?));
        }
        Ok(Some(RescaleDown {
            conv: HpsConverter::new(&RnsBasis::new(&dropped)?, lower.basis()),
            p_mod_ql: ql.shoup(p_mod(ql)),
            minus_p_inv,
            ql_inv,
        }))
    }
}

impl KeySwitcher {
    /// The key switch of d (over level l >= 1, NTT form) added to `c` = (c_0, c_1) (over level l,
    /// NTT form) and rescaled by q_l, into level l - 1 in NTT form: round((c_i + ModDown_P(U_i)) /
    /// q_l) with one rounding (module doc). `None` where the division is not fused (level 0, no
    /// special primes, general-m rings, Montgomery forms): the caller then switches and rescales
    /// in two steps.
    pub(crate) fn switch_rescale(
        &self,
        d: &Poly,
        key: &KeySwitchKey,
        c: [&Poly; 2],
    ) -> Result<Option<[Poly; 2]>> {
        let level = self.level_of_input(d)?;
        let Some(Some(fused)) = self.rescale_down.get(level) else {
            return Ok(None);
        };
        let ring = &self.levels.rings()[level];
        let plain = |p: &Poly| {
            Arc::ptr_eq(p.context(), ring)
                && p.representation() == Representation::Ntt
                && p.montgomery_form() == Form::Plain
                && !p.is_unreduced_product()
        };
        if !(plain(d) && plain(c[0]) && plain(c[1])) {
            return Ok(None);
        }
        self.check_key(key, level)?;
        // The limbs of P in coefficient form, unscaled: the division below converts them with q_l.
        let (mut u0, mut u1) = self.key_products(&self.digit_source(d)?, key, true, false)?;
        let lower = &self.levels.rings()[level - 1];
        let qp = self.ring_qp();
        let n = ring.degree();
        let down = |u: &mut [u64], c: &Poly| -> Result<Poly> {
            let c = c.residues();
            // The limb q_l of x = P c + U, to coefficient form beside the limbs of P.
            let ql = &qp.moduli()[level];
            let mut t = Buffer::stale(n);
            let r = level * n..(level + 1) * n;
            vector::mul_shoup_scalar_add_into(
                ql,
                &c[r.clone()],
                fused.p_mod_ql,
                &u[r.clone()],
                &mut t,
            );
            qp.inverse_limb(level, &mut t, false)?;
            u[r].copy_from_slice(&t);
            // [x_D] on Q_(l-1) (coefficient form, every word written).
            let mut conv = Buffer::stale(level * n);
            let dropped = level * n..(level + 1 + self.special_count()) * n;
            fused.conv.convert(&u[dropped], &mut conv)?;
            let u = &u[..level * n];
            Poly::from_fill(lower, Representation::Ntt, |out| {
                parallel::for_each_limb(out, n, |j, o| {
                    let (m, r) = (&lower.moduli()[j], j * n..(j + 1) * n);
                    o.copy_from_slice(&conv[r.clone()]);
                    lower.forward_limb(j, o)?;
                    // ((U_j - [x_D]) P^-1 + c_j) q_l^-1.
                    vector::sub_assign(m, o, &u[r.clone()]);
                    vector::mul_shoup_scalar_add_assign(m, o, fused.minus_p_inv[j], &c[r]);
                    vector::mul_shoup_scalar_assign(m, o, fused.ql_inv[j]);
                    Ok::<(), Error>(())
                })
            })
        };
        let words = u0.len() + u1.len();
        let (r0, r1) = parallel::join(words, || down(&mut u0, c[0]), || down(&mut u1, c[1]));
        Ok(Some([r0?, r1?]))
    }
}
