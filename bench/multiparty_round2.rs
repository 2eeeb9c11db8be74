//! A profiling loop for the multiparty steps at the multiparty comparison's parameters (N = 2^14,
//! Q 7 x 55 bits, P 55 bits). Not built by the workspace: copy it to
//! crates/rnsfhe/examples/mp_round2.rs, then `cargo build --release -p rnsfhe --example mp_round2`:
//! `mp_round2 both|bfv|ckks REPS` times RKG round 2 (best and mean of REPS), `mp_round2 combine REPS`
//! the threshold combination, `mp_round2 ntt` one 2^14-point NTT at the first prime.
use rnsfhe::bfv::{BfvContext, BfvParameters};
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::multiparty::{rkg, Aggregator, Party, Share};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{Crs, KeyContext, KeySwitching};
use rnsfhe_math::sample::Csprng;
use std::time::Instant;

fn run(name: &str, kc: &dyn KeyContext, reps: usize) {
    let mut rng = Csprng::from_seed([25; 32]);
    let crs = Crs::new([17; 32]);
    let p0 = Party::generate(kc, 0, &mut rng).unwrap();
    let p1 = Party::generate(kc, 1, &mut rng).unwrap();
    let top = kc.key_switcher().top_level();
    let ring = kc.key_switcher().key_ring(0, top).unwrap();
    println!(
        "{name}: moduli {:?}",
        ring.moduli().iter().map(|q| q.value()).collect::<Vec<_>>()
    );
    let crp = rkg::crp(kc, &crs, top).unwrap();
    let (r0, e0) = rkg::share_round1_with(kc, &p0, &crp, &mut rng).unwrap();
    let (r1, _e1) = rkg::share_round1_with(kc, &p1, &crp, &mut rng).unwrap();
    let round1 = rkg::round1(kc, &crs, top, None).unwrap();
    let mut agg = Aggregator::new(kc, round1, &[0, 1]).unwrap();
    agg.add(&r0).unwrap();
    agg.add(&r1).unwrap();
    let a1: Share = agg.finish().unwrap();
    let mut best = f64::MAX;
    let mut tot = 0.0;
    for _ in 0..reps {
        let t = Instant::now();
        let s = rkg::share_round2(kc, &p0, &e0, &a1, &mut rng).unwrap();
        let e = t.elapsed().as_secs_f64();
        best = best.min(e);
        tot += e;
        std::hint::black_box(s);
    }
    println!(
        "{name}: round 2 best of {reps}: {:.3} ms mean {:.3}",
        best * 1e3,
        tot / reps as f64 * 1e3
    );
}

/// The anchor's contexts (Lattigo's N = 2^14, Q 7 x 55, P 55; insecure at log QP = 440 > 438).
fn bfv_ctx() -> std::sync::Arc<BfvContext> {
    let (ks, insecure) = (KeySwitching::default(), Security::InsecureResearchOnly);
    BfvContext::new(BfvParameters::builder().degree(1 << 14).plain_modulus(65537)
        .moduli_bits(&[55; 7]).special_moduli_bits(&[55]).key_switching(ks).security(insecure).build().unwrap()).unwrap()
}

fn ckks_ctx() -> std::sync::Arc<CkksContext> {
    let (ks, insecure) = (KeySwitching::default(), Security::InsecureResearchOnly);
    CkksContext::new(CkksParameters::builder().degree(1 << 14).chain_bits(vec![55; 7]).scale_bits(55)
        .special_moduli_bits(&[55]).key_switching(ks).security(insecure).build().unwrap()).unwrap()
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "both".into());
    let reps: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(30);
    if which == "ntt" {
        let bfv = bfv_ctx();
        let kc = bfv.as_key_context();
        let ring = kc.key_switcher().key_ring(0, kc.key_switcher().top_level()).unwrap();
        let t = &ring.ntt_tables()[0];
        let q = ring.moduli()[0].value();
        let mut buf: Vec<u64> = (0..1u64 << 14).map(|i| (i * 0x9e37_79b9_7f4a_7c15) % q).collect();
        for rep in 0..5 {
            let mut best = f64::MAX;
            for _ in 0..20 {
                let s = Instant::now();
                for _ in 0..50 { t.forward(&mut buf).unwrap(); t.inverse(&mut buf).unwrap(); }
                best = best.min(s.elapsed().as_secs_f64() / 100.0);
            }
            println!("ntt fwd+inv avg per transform, best of 20x50: {:.2} us (rep {rep})", best * 1e6);
        }
        return;
    }
    if which == "combine" {
        let bfv = bfv_ctx();
        combine(bfv.as_key_context(), reps);
        let ckks = ckks_ctx();
        combine(ckks.as_key_context(), reps);
        return;
    }
    if which != "ckks" {
        let bfv = bfv_ctx();
        run("bfv", bfv.as_key_context(), reps);
    }
    if which != "bfv" {
        let ckks = ckks_ctx();
        run("ckks", ckks.as_key_context(), reps);
    }
}

#[allow(dead_code)]
pub fn combine(kc: &dyn KeyContext, reps: usize) {
    use rnsfhe::multiparty::{threshold, Group, ThresholdSecret};
    let t = 17usize;
    let mut rng = Csprng::from_seed([25; 32]);
    let crs = Crs::new([17; 32]);
    let members: Vec<u32> = (0..t as u32).collect();
    let group = Group::new(t, &members).unwrap();
    let mut shares = Vec::new();
    for &i in &members {
        let p = Party::generate(kc, i, &mut rng).unwrap();
        let f = threshold::shamir_polynomial(kc, &p, t, &mut rng).unwrap();
        shares.push(f.share_for(kc, &crs, &group, 0).unwrap());
    }
    let round = threshold::shamir_round(kc, &crs, &group, 0).unwrap();
    let mut agg = Aggregator::new(kc, round, &members).unwrap();
    for s in &shares {
        agg.add(s).unwrap();
    }
    let tsk = ThresholdSecret::from_aggregate(kc, &crs, &agg.finish().unwrap(), 0).unwrap();
    let mut out = tsk.combine(kc, &members).unwrap();
    let mut best = f64::MAX;
    let mut total = 0.0;
    for _ in 0..reps {
        let t = Instant::now();
        tsk.combine_into(kc, &members, &mut out).unwrap();
        let e = t.elapsed().as_secs_f64();
        best = best.min(e);
        total += e;
    }
    println!(
        "combine_into best {:.4} ms mean {:.4} ms",
        best * 1e3,
        total / reps as f64 * 1e3
    );
}
