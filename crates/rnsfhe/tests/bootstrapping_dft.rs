//! CoeffsToSlots and SlotsToCoeffs of bootstrapping (`circuits::bootstrapping`) against their
//! plaintext models, at N = 2^11 (insecure toy parameters): full (1024) and sparse (16) slots, every
//! format (`Complex`, `Split`, `Packed`, `Real`).
//!
//! - CoeffsToSlots of a ModRaised ciphertext (its plaintext m' + q_0 I, read exactly from c_0 + c_1 s)
//!   with bootstrapping's factor 1 / (q_0 K): the decryption equals `apply_plain` of the exact
//!   coefficients (the model reads them directly, without the DFT; SubSum's trace included for
//!   sparse slots) within 2^-20;
//! - SlotsToCoeffs of real slot vectors against `apply_plain` (the encoder's decoding map);
//! - CoeffsToSlots then SlotsToCoeffs is the identity on the slots (real inputs for `Real`);
//! - levels, scales and refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::worst_slot_error;

#[path = "support/phase.rs"]
mod phase;
#[path = "support/slots.rs"]
mod slots;

#[path = "support/ckks.rs"]
mod ckks_support;

use rnsfhe::circuits::bootstrapping::{
    mod_raise, CoeffsToSlots, GaloisRequirement, SlotsFormat, SlotsToCoeffs,
};
use rnsfhe::circuits::lintrans::DiagonalStorage;
use rnsfhe::ckks::{CkksCiphertext, Complex};
use rnsfhe::rlwe::{GaloisKeys, KeyGenerator};
use rnsfhe::Error;

use ckks_support::{toy_dft, Toy as Fixture};

const LEVELS: usize = 8;
const K: f64 = 16.0;

fn fixture(seed: u8) -> Fixture {
    toy_dft(LEVELS, 45, seed)
}

impl Fixture {
    /// Keys for the elements of `needs` (any level: full-level keys).
    fn keys(&mut self, needs: &[GaloisRequirement]) -> GaloisKeys {
        let el: Vec<u64> = needs.iter().map(|g| g.element).collect();
        KeyGenerator::new(&*self.ctx, &mut self.rng)
            .galois_keys(&self.sk, &el)
            .unwrap()
    }

    fn decrypt(&self, ct: &CkksCiphertext) -> Vec<Complex> {
        let mut v = self.ctx.decrypt_values(ct, &self.sk).unwrap();
        v.truncate(ct.slots());
        v
    }
}

fn max_err(got: &[Complex], want: &[Complex]) -> f64 {
    worst_slot_error(got, want)
}

/// Real parts only (the inputs of `Real`).
fn real(z: &[Complex]) -> Vec<Complex> {
    z.iter().map(|x| Complex::from_real(x.re)).collect()
}

/// CoeffsToSlots of a raised ciphertext against the model on its exact coefficients.
fn cts_on_raised(f: &mut Fixture, slots: usize, budget: usize, format: SlotsFormat) {
    let top = f.ctx.max_level();
    let q0 = f.ctx.params().moduli()[0] as f64;
    let cts = CoeffsToSlots::new(
        &f.ctx,
        slots,
        budget,
        top,
        1.0 / (q0 * K),
        format,
        DiagonalStorage::Ntt,
    )
    .unwrap();
    assert_eq!(cts.output_level(), top - budget);
    let gk = f.keys(&cts.galois_uses(&f.ctx));
    let z = slots::values(slots, slots as u64 + budget as u64);
    let low = f.encrypt(&z, 0);
    let raised = mod_raise(&f.ctx, &low, top).unwrap();
    let coeffs = phase::phase_f64(&f.ctx, &raised, &f.sk);
    let want = cts.apply_plain(&f.ctx, &coeffs).unwrap();
    let got = cts.apply(&f.ctx, &raised, &gk).unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.level(), top - budget);
        assert_eq!(g.scale(), f.ctx.scale_at(top - budget).unwrap());
        let e = max_err(&f.decrypt(g), w);
        assert!(e < 2f64.powi(-20), "{format:?} {slots} slots: error {e:e}");
    }
}

#[test]
fn coeffs_to_slots_full() {
    let mut f = fixture(1);
    for format in [SlotsFormat::Complex, SlotsFormat::Split, SlotsFormat::Real] {
        cts_on_raised(&mut f, 1024, 3, format);
    }
}

#[test]
fn coeffs_to_slots_sparse() {
    let mut f = fixture(2);
    for format in [SlotsFormat::Split, SlotsFormat::Packed] {
        cts_on_raised(&mut f, 16, 2, format);
    }
}

/// SlotsToCoeffs of encrypted real vectors against the decoding map.
fn stc_model(f: &mut Fixture, slots: usize, budget: usize, format: SlotsFormat) {
    let level = budget + 1;
    let stc = SlotsToCoeffs::new(
        &f.ctx,
        slots,
        budget,
        level,
        3.0,
        format,
        DiagonalStorage::Ntt,
    )
    .unwrap();
    let gk = f.keys(&stc.galois_uses(&f.ctx));
    let width = if format == SlotsFormat::Packed {
        2 * slots
    } else {
        slots
    };
    let inputs: Vec<Vec<Complex>> = (0..format.parts())
        .map(|i| {
            let v = slots::values(width, 7 + i as u64);
            if format == SlotsFormat::Complex {
                v
            } else {
                real(&v)
            }
        })
        .collect();
    let cts: Vec<CkksCiphertext> = inputs.iter().map(|v| f.encrypt(v, level)).collect();
    let want = stc.apply_plain(&f.ctx, &inputs).unwrap();
    let got = stc.apply(&f.ctx, &cts, &gk).unwrap();
    assert_eq!((got.level(), got.slots()), (level - budget, slots));
    let e = max_err(&f.decrypt(&got), &want);
    assert!(e < 1e-6, "{format:?} {slots} slots: error {e:e}");
}

#[test]
fn slots_to_coeffs_models() {
    let mut f = fixture(3);
    for format in [SlotsFormat::Complex, SlotsFormat::Split, SlotsFormat::Real] {
        stc_model(&mut f, 1024, 2, format);
    }
    for format in [SlotsFormat::Packed, SlotsFormat::Split, SlotsFormat::Real] {
        stc_model(&mut f, 16, 2, format);
    }
}

/// CoeffsToSlots then SlotsToCoeffs with factors whose product is 1 / Delta: the slots come back.
fn identity(f: &mut Fixture, slots: usize, format: SlotsFormat) {
    let top = f.ctx.max_level();
    let delta = f.ctx.scale_at(top).unwrap();
    let cts = CoeffsToSlots::new(
        &f.ctx,
        slots,
        3,
        top,
        64.0 / delta,
        format,
        DiagonalStorage::Compact,
    )
    .unwrap();
    let stc = SlotsToCoeffs::new(
        &f.ctx,
        slots,
        3,
        top - 3,
        1.0 / 64.0,
        format,
        DiagonalStorage::Compact,
    )
    .unwrap();
    let mut needs = cts.galois_uses(&f.ctx);
    needs.extend(stc.galois_uses(&f.ctx));
    let gk = f.keys(&needs);
    let mut z = slots::values(slots, 11);
    if format == SlotsFormat::Real {
        z = real(&z);
    }
    let ct = f.encrypt(&z, top);
    let mid = cts.apply(&f.ctx, &ct, &gk).unwrap();
    let back = stc.apply(&f.ctx, &mid, &gk).unwrap();
    assert_eq!(back.level(), top - 6);
    let e = max_err(&f.decrypt(&back), &z);
    assert!(e < 1e-6, "{format:?} {slots} slots: identity error {e:e}");
}

#[test]
fn round_trips() {
    let mut f = fixture(4);
    for format in [SlotsFormat::Complex, SlotsFormat::Split, SlotsFormat::Real] {
        identity(&mut f, 1024, format);
    }
    for format in [SlotsFormat::Packed, SlotsFormat::Complex] {
        identity(&mut f, 16, format);
    }
}

#[test]
fn refusals() {
    let mut f = fixture(5);
    let top = f.ctx.max_level();
    assert!(matches!(
        CoeffsToSlots::new(
            &f.ctx,
            1024,
            2,
            top,
            1.0,
            SlotsFormat::Packed,
            DiagonalStorage::Ntt
        ),
        Err(Error::InvalidParameters(_))
    ));
    assert!(CoeffsToSlots::new(
        &f.ctx,
        24,
        2,
        top,
        1.0,
        SlotsFormat::Split,
        DiagonalStorage::Ntt
    )
    .is_err());
    assert!(CoeffsToSlots::new(
        &f.ctx,
        16,
        2,
        top,
        -1.0,
        SlotsFormat::Split,
        DiagonalStorage::Ntt
    )
    .is_err());
    assert!(SlotsToCoeffs::new(
        &f.ctx,
        16,
        3,
        2,
        1.0,
        SlotsFormat::Split,
        DiagonalStorage::Ntt
    )
    .is_err());
    let cts = CoeffsToSlots::new(
        &f.ctx,
        16,
        2,
        top,
        1.0,
        SlotsFormat::Split,
        DiagonalStorage::Ntt,
    )
    .unwrap();
    let ct = f.encrypt(&slots::values(32, 1), top);
    let gk = f.keys(&cts.galois_uses(&f.ctx));
    assert!(matches!(
        cts.apply(&f.ctx, &ct, &gk),
        Err(Error::LengthMismatch { .. })
    ));
    let ct = f.encrypt(&slots::values(16, 1), top);
    let none = f.keys(&[]);
    assert!(matches!(
        cts.apply(&f.ctx, &ct, &none),
        Err(Error::MissingGaloisKey { .. })
    ));
    let stc = SlotsToCoeffs::new(
        &f.ctx,
        16,
        2,
        3,
        1.0,
        SlotsFormat::Split,
        DiagonalStorage::Ntt,
    )
    .unwrap();
    let one = f.encrypt(&slots::values(16, 2), 3);
    assert!(matches!(
        stc.apply(&f.ctx, &[one], &gk),
        Err(Error::LengthMismatch { .. })
    ));
}
