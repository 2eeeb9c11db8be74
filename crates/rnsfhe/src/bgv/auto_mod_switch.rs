//! Automatic modulus switching (`ModulusSwitching::Auto`, the default): the operators manage the
//! levels, as OpenFHE's BGV in FIXEDAUTO / FLEXIBLEAUTO, so that plain `a * b` chains reach the depth
//! a user gets by hand with a `mod_switch` after each product.
//!
//! # Policy: switch lazily, before products, while the switch gives the product more room
//!
//! With the bounds of `noise.rs` (L >= ||x||_2 of the phase x = [c(s)]_{Q_l}, rho the reduction's
//! expansion, E the key-switching term t ||e_ks|| of relinearisation, R the rounding term a modulus
//! switch adds, the same at every level, about t sqrt(n S2 / 12) for X^n + 1):
//! - a relinearised product at level l has ||x||_inf <= rho L_a L_b + E, and decrypts while that is
//!   below Q_l / 2; its room is `log2(Q_l / 2) - log2(rho L_a L_b + E)`;
//! - switching both operands to level l - 1 first (Lemma 3: L -> L / q_l + R) leaves the room
//!   `log2(Q_l / (2 q_l)) - log2(rho (L_a / q_l + R) (L_b / q_l + R) + E)`.
//!
//! Before a product of two ciphertexts the operands are brought to a common level (the lower one;
//! a modulus cannot be added back), then both are switched down one level at a time **while the
//! second room is larger than the first** (computed from the bounds the operands carry, exactly as
//! the result's bound will be). Up to E that is q_l (L_a / q_l + R)(L_b / q_l + R) < L_a L_b:
//! - operands far above the switching floor (L >> R q_l, the result of a product) gain about
//!   log2 q_l bits per switch: they are switched, as in the hand-tuned chain;
//! - a square (L_a = L_b = L) is switched only when L > about R sqrt(q_l): a fresh ciphertext (L a
//!   few bits above R) is multiplied at the top level unswitched, while a product, whose bound is
//!   about rho sqrt(n) times the square of its operands', is switched before it is multiplied again;
//! - a switch of an operand already at the floor gains nothing, so the loop stops; a bound still
//!   far above R q_l after one switch gets another.
//!
//! In a chain of squarings the k-th product is then computed at level L + 1 - k, the level at which
//! the hand-tuned chain (product, then `mod_switch`) computes it, from operands with the same
//! bounds: the depth is the hand-tuned depth. Where a product's bound stays below R sqrt(q_l) (a
//! small t, e.g. t = 2 over a general Phi_m) the rule keeps two products at one level, which the
//! hand-tuned chain cannot, and goes deeper.
//!
//! Why before products and not after each one: a switch never helps a linear operation. For
//! ||x|| / Q_l, the quantity decryption and sums depend on, a switch gives (L / q_l + R) q_l / Q_l =
//! L / Q_l + R q_l / Q_l: never smaller. A product's result is therefore kept at its level until it
//! is multiplied again; sums, plaintext and scalar products, rotations and decryption work at the
//! level of their operands (a switch after `mul_plain` rather than before also keeps R out of the
//! factor ||m||_1), and their results are switched when a product needs it.
//!
//! Levels of sums: a sum (or difference) of ciphertexts at different levels is computed at the lower
//! level, the higher operand switched down (its ratio ||x|| / Q grows by R q / Q per switch only).
//! Operands without a carried bound (`ciphertext_from_parts`) are aligned but never switched further.
//!
//! `ModulusSwitching::Manual` keeps the explicit behaviour: no switch, and operands at different
//! levels refused with `LevelMismatch`.

use std::borrow::Cow;

use super::{BgvCiphertext, BgvContext, ModulusSwitching};
use crate::rlwe::KeyId;
use crate::Result;

impl BgvContext {
    /// Whether the operators switch the modulus (`ModulusSwitching::Auto`).
    pub(super) fn auto_switching(&self) -> bool {
        self.params().modulus_switching() == ModulusSwitching::Auto
    }

    /// `a` at `level` (below its own): itself, or a copy switched down.
    fn at_level<'a>(&self, a: &'a BgvCiphertext, level: usize) -> Result<Cow<'a, BgvCiphertext>> {
        if a.level == level {
            Ok(Cow::Borrowed(a))
        } else {
            self.mod_switch_to_level(a, level).map(Cow::Owned)
        }
    }

    /// The operands of a sum at one level in the automatic mode: `a` switched down in place or the
    /// returned copy of `b` (`None`: `b` as it is). Both are checked (context, key pair) before any
    /// switch, so an error leaves `a` unchanged. Manual mode: nothing (the sum checks the levels).
    pub(super) fn align_levels(
        &self,
        a: &mut BgvCiphertext,
        b: &BgvCiphertext,
    ) -> Result<Option<BgvCiphertext>> {
        if !self.auto_switching() || a.level == b.level {
            return Ok(None);
        }
        self.check_ct(a)?;
        self.check_ct(b)?;
        KeyId::join(a.key_id, b.key_id)?;
        if a.level > b.level {
            *a = self.mod_switch_to_level(a, b.level)?;
            Ok(None)
        } else {
            self.mod_switch_to_level(b, a.level).map(Some)
        }
    }

    /// The operands of a product in the automatic mode (see the module's policy): aligned to the
    /// lower level, then both switched down while that gives the product more room. Returns the
    /// first operand and the second (`None` when `b` is `a` itself: a square is switched once).
    /// The operands are checked by the caller.
    pub(super) fn product_operands<'a>(
        &self,
        a: &'a BgvCiphertext,
        b: &'a BgvCiphertext,
    ) -> Result<(Cow<'a, BgvCiphertext>, Option<Cow<'a, BgvCiphertext>>)> {
        let (mut x, mut y) = if std::ptr::eq(a, b) {
            (Cow::Borrowed(a), None)
        } else {
            let level = a.level.min(b.level);
            (self.at_level(a, level)?, Some(self.at_level(b, level)?))
        };
        while self.switch_pays(&x, y.as_deref().unwrap_or(&x)) {
            x = Cow::Owned(self.mod_switch(&x)?);
            if let Some(v) = y.as_mut() {
                *v = Cow::Owned(self.mod_switch(v)?);
            }
        }
        Ok((x, y))
    }

    /// Whether switching both operands (at one level l > 0, with carried bounds) leaves their
    /// relinearised product more room below Q / 2 than multiplying them at level l.
    fn switch_pays(&self, a: &BgvCiphertext, b: &BgvCiphertext) -> bool {
        let l = a.level;
        if l == 0 || b.level != l {
            return false;
        }
        let room = |na, nb, level| {
            let [i, _] = self.noise.key_switch(self.noise.multiply(na, nb))?;
            Some(self.log_q_at(level) - 1.0 - i)
        };
        let log_ql = (self.params().moduli()[l] as f64).log2();
        let down = |x: &BgvCiphertext| self.noise.mod_switch(x.noise, log_ql, x.parts.len());
        match (room(a.noise, b.noise, l), room(down(a), down(b), l - 1)) {
            (Some(now), Some(after)) => after > now,
            _ => false,
        }
    }
}
