//! The homomorphic DFT (`circuits::dft`) against its plaintext model: CKKS at N = 2^11 (insecure toy
//! parameters, 10 levels), full (1024) and sparse (16) slots, budgets from 1 to log2(slots), both
//! directions. The decryption of `apply` equals the stage matrices composed in plain f64 (within
//! 1e-5 of the input's largest value); the output is at the start level minus the budget, on the
//! chain's scale there; the model of SlotsToCoeffs is the encoder's decoding map (on bit-reversed
//! input); CoeffsToSlots(SlotsToCoeffs(z)) and SlotsToCoeffs(CoeffsToSlots(z)) give z back; the
//! refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;
use worst::{worst_error, worst_slot_error};

#[path = "support/slots.rs"]
mod slots;

#[path = "support/ckks.rs"]
mod ckks_support;

use rnsfhe::circuits::dft::{DftDirection, HomomorphicDft};
use rnsfhe::ckks::{fft_stages, CkksCiphertext, Complex};
use rnsfhe::rlwe::GaloisKeys;
use rnsfhe::Error;

use ckks_support::{toy_dft, Toy as Fixture};

use slots::values;

const LEVELS: usize = 10;
const TOL: f64 = 1e-5;

fn fixture(seed: u8) -> Fixture {
    toy_dft(LEVELS, 40, seed)
}

impl Fixture {
    fn keys(&mut self, steps: &[i64]) -> GaloisKeys {
        self.ctx
            .galois_keys(&self.sk, steps, false, &mut self.rng)
            .unwrap()
    }

    fn decrypt(&self, ct: &CkksCiphertext) -> Vec<Complex> {
        let mut v = self.ctx.decrypt_values(ct, &self.sk).unwrap();
        v.truncate(ct.slots());
        v
    }
}

fn max_abs(v: &[Complex]) -> f64 {
    worst_error(v.iter().map(|z| z.abs()))
}

/// |got - want| <= TOL * max|input| slot by slot.
fn close(got: &[Complex], want: &[Complex], input: &[Complex], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    let bound = TOL * max_abs(input);
    let err = worst_slot_error(got, want);
    assert!(err <= bound, "{what}: error {err:e} > {bound:e}");
}

/// The bit reversal of i among n = 2^k indices.
fn bit_reverse(i: usize, n: usize) -> usize {
    i.reverse_bits() >> (usize::BITS - n.trailing_zeros())
}

/// One direction at one budget and start level: the decryption against the composed stages, the
/// output's level and scale, the stage count and the rotation steps.
fn check(f: &mut Fixture, direction: DftDirection, slots: usize, budget: usize, level: usize) {
    let what = format!("{direction:?}, {slots} slots, budget {budget}, level {level}");
    let dft = HomomorphicDft::new(&f.ctx, direction, slots, budget, level).unwrap();
    assert_eq!(
        (dft.budget(), dft.stages().len()),
        (budget, budget),
        "{what}"
    );
    assert_eq!(dft.output_level(), level - budget, "{what}");
    for (k, s) in dft.stages().iter().enumerate() {
        assert_eq!(s.level(), level - k, "{what}: stage {k}");
        for step in s.rotation_steps() {
            assert!(dft.rotation_steps().contains(&step), "{what}: step {step}");
        }
    }
    let gk = f.keys(&dft.rotation_steps());
    let z = values(slots, (slots + budget) as u64);
    let ct = f.encrypt(&z, level);
    let out = dft.apply(&f.ctx, &ct, &gk).unwrap();
    assert_eq!(out.level(), level - budget, "{what}");
    assert_eq!(
        out.scale(),
        f.ctx.scale_at(level - budget).unwrap(),
        "{what}"
    );
    assert_eq!(out.slots(), slots, "{what}");
    let want = dft.apply_plain(&z).unwrap();
    close(&f.decrypt(&out), &want, &z, &what);
}

/// The model of SlotsToCoeffs is the encoder's decoding map on bit-reversed input: slots
/// embed(c) of the coefficients c_(k gap) = Re v_k, c_(k gap + N/2) = -Im v_k.
fn check_model_is_the_decoding_map(f: &Fixture, slots: usize, budget: usize) {
    let dft =
        HomomorphicDft::new(&f.ctx, DftDirection::SlotsToCoeffs, slots, budget, budget).unwrap();
    let v = values(slots, 7);
    let rev: Vec<Complex> = (0..slots).map(|i| v[bit_reverse(i, slots)]).collect();
    let ring = 1 << 11;
    let (half, gap) = (ring / 2, ring / 2 / slots);
    let mut coeffs = vec![0.0; ring];
    for (k, c) in v.iter().enumerate() {
        coeffs[k * gap] = c.re;
        coeffs[k * gap + half] = -c.im;
    }
    let want: Vec<Complex> = f.ctx.encoder().embed(&coeffs)[..slots].to_vec();
    close(&dft.apply_plain(&rev).unwrap(), &want, &v, "decoding map");
}

/// CoeffsToSlots after SlotsToCoeffs (and the other way) gives the input back: the bit reversals
/// cancel (decode = U P, encode = P U^-1).
fn check_round_trip(f: &mut Fixture, slots: usize, budget: usize) {
    let top = f.ctx.max_level();
    for (first, second) in [
        (DftDirection::SlotsToCoeffs, DftDirection::CoeffsToSlots),
        (DftDirection::CoeffsToSlots, DftDirection::SlotsToCoeffs),
    ] {
        let a = HomomorphicDft::new(&f.ctx, first, slots, budget, top).unwrap();
        let b = HomomorphicDft::new(&f.ctx, second, slots, budget, top - budget).unwrap();
        let mut steps = a.rotation_steps();
        steps.extend(b.rotation_steps());
        let gk = f.keys(&steps);
        let z = values(slots, 11 + budget as u64);
        let ct = f.encrypt(&z, top);
        let out = b
            .apply(&f.ctx, &a.apply(&f.ctx, &ct, &gk).unwrap(), &gk)
            .unwrap();
        assert_eq!(out.level(), top - 2 * budget);
        let what = format!("{second:?}({first:?}), {slots} slots, budget {budget}");
        close(&f.decrypt(&out), &z, &z, &what);
        close(
            &b.apply_plain(&a.apply_plain(&z).unwrap()).unwrap(),
            &z,
            &z,
            &what,
        );
    }
}

#[test]
fn sparse_slots_every_budget() {
    let mut f = fixture(1);
    for budget in 1..=4 {
        check(&mut f, DftDirection::SlotsToCoeffs, 16, budget, LEVELS);
        check(&mut f, DftDirection::CoeffsToSlots, 16, budget, LEVELS - 1);
        check_model_is_the_decoding_map(&f, 16, budget);
        check_round_trip(&mut f, 16, budget);
    }
}

#[test]
fn full_slots() {
    let mut f = fixture(2);
    for budget in [2, 3, 10] {
        check(&mut f, DftDirection::SlotsToCoeffs, 1024, budget, LEVELS);
    }
    for budget in [3, 5] {
        check(&mut f, DftDirection::CoeffsToSlots, 1024, budget, 8);
    }
    // One dense stage (1024 diagonals), at level 1 to keep its plaintexts small.
    check(&mut f, DftDirection::CoeffsToSlots, 1024, 1, 1);
    check_model_is_the_decoding_map(&f, 1024, 4);
    check_round_trip(&mut f, 1024, 4);
}

#[test]
fn refusals() {
    let mut f = fixture(3);
    let ctx = &f.ctx;
    let s2c = DftDirection::SlotsToCoeffs;
    // A budget above the start level, or above log2(slots); a start level above the top.
    for (budget, level) in [(3, 2), (5, LEVELS), (2, LEVELS + 1)] {
        assert!(HomomorphicDft::new(ctx, s2c, 16, budget, level).is_err());
    }
    assert!(matches!(
        HomomorphicDft::new(ctx, s2c, 16, 3, 2),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        HomomorphicDft::new(ctx, s2c, 24, 1, 2),
        Err(Error::OutOfRange(_))
    ));
    // Stages of different sizes, or none.
    let a = fft_stages(ctx.encoder(), 16, 1).unwrap().decode;
    let b = fft_stages(ctx.encoder(), 32, 1).unwrap().decode;
    let mixed = vec![a[0].clone(), b[0].clone()];
    assert!(HomomorphicDft::from_matrices(ctx, s2c, mixed, 4).is_err());
    assert!(HomomorphicDft::from_matrices(ctx, s2c, Vec::new(), 4).is_err());
    // Another level, another slot count, a missing key (named by its step).
    let dft = HomomorphicDft::new(ctx, s2c, 16, 2, 5).unwrap();
    let missing = dft.stages()[0].rotation_steps()[0];
    let steps: Vec<i64> = dft
        .rotation_steps()
        .into_iter()
        .filter(|&s| s != missing)
        .collect();
    let gk = f.keys(&steps);
    let z = values(16, 1);
    let ct = f.encrypt(&z, 4);
    let e = dft.apply(&f.ctx, &ct, &gk).unwrap_err();
    assert!(matches!(e, Error::LevelMismatch { .. }), "{e}");
    let wide = f.encrypt(&values(32, 1), 5);
    let e = dft.apply(&f.ctx, &wide, &gk).unwrap_err();
    assert!(matches!(e, Error::LengthMismatch { .. }), "{e}");
    let ct = f.encrypt(&z, 5);
    let e = dft.apply(&f.ctx, &ct, &gk).unwrap_err();
    assert!(
        matches!(e, Error::MissingGaloisKey { step: Some(s), .. } if s == missing),
        "{e}"
    );
    assert!(dft.apply_plain(&z[..8]).is_err());
}

/// Compact diagonals (`DiagonalStorage::Compact`, `from_matrices_with`) give the same
/// ciphertexts as diagonals held in NTT form, bit for bit, in both directions, full and sparse
/// slots, and hold 1 / (l + 1 + |P|) of their bytes.
#[test]
fn compact_diagonals_are_bit_identical() {
    use rnsfhe::circuits::lintrans::DiagonalStorage;
    let mut f = fixture(31);
    for (direction, slots, budget) in [
        (DftDirection::CoeffsToSlots, 1024, 3),
        (DftDirection::SlotsToCoeffs, 1024, 2),
        (DftDirection::CoeffsToSlots, 16, 2),
    ] {
        let what = format!("{direction:?}, {slots} slots, budget {budget}");
        let st = fft_stages(f.ctx.encoder(), slots, budget).unwrap();
        let matrices = match direction {
            DftDirection::SlotsToCoeffs => st.decode,
            DftDirection::CoeffsToSlots => st.encode,
        };
        let build = |s| {
            HomomorphicDft::from_matrices_with(&f.ctx, direction, matrices.clone(), LEVELS, s)
                .unwrap()
        };
        let (ntt, compact) = (build(DiagonalStorage::Ntt), build(DiagonalStorage::Compact));
        let limbs = LEVELS + 1 + 2;
        assert!(
            compact.encoded_bytes() * (limbs - budget) <= ntt.encoded_bytes(),
            "{what}: {} compact bytes, {} in NTT form",
            compact.encoded_bytes(),
            ntt.encoded_bytes()
        );
        let keys = f.keys(&ntt.rotation_steps());
        let z = values(slots, 5);
        let ct = f.encrypt(&z, LEVELS);
        let (a, b) = (
            ntt.apply(&f.ctx, &ct, &keys).unwrap(),
            compact.apply(&f.ctx, &ct, &keys).unwrap(),
        );
        assert_eq!(a.level(), b.level(), "{what}");
        for (x, y) in a.parts().iter().zip(b.parts()) {
            assert!(x.residues() == y.residues(), "{what}: the parts differ");
        }
        close(&f.decrypt(&b), &ntt.apply_plain(&z).unwrap(), &z, &what);
    }
}
