//! Key truncation (Bajard et al. (SAC 2016) section 4.6): row j of the relinearisation key is zero on the limbs
//! I_j = {j+1, .., j+i} (cyclically), so the key is kept and serialised without them: i limbs of
//! n words less per row in memory (k0 and k1) and in bytes (k0; k1 is a seed), and the loaded key
//! still relinearises exactly.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::params::Security;
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::serialize::KeyBytes;
use rnsfhe_math::sample::Csprng;

fn context(n: usize, k: usize, truncation: usize) -> std::sync::Arc<BfvContext> {
    let p = BfvParameters::builder()
        .degree(n)
        .plain_modulus(65537)
        .moduli_bits(&vec![60; k])
        .special_moduli_bits(&[])
        .multiplication(Multiplication::Hps)
        .key_switching(KeySwitching {
            truncation,
            ..KeySwitching::default()
        })
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    BfvContext::new(p).unwrap()
}

#[test]
fn truncated_key_is_smaller_in_memory_and_bytes_and_still_relinearises() {
    let mut rng = Csprng::from_seed([46; 32]);
    let (n, k) = (256usize, 5usize);
    let full = context(n, k, 0);
    let (fsk, _) = full.keygen(&mut rng).unwrap();
    let full_rlk = full.relin_key(&fsk, &mut rng).unwrap();
    let full_bytes = full.relin_key_to_bytes(&full_rlk).len();
    let words = |rlk: &rnsfhe::rlwe::RelinKey| -> usize {
        rlk.key()
            .parts()
            .iter()
            .map(|(a, b)| a.residues().len() + b.residues().len())
            .sum()
    };
    assert_eq!(words(&full_rlk), 2 * k * k * n);
    for i in 1..k - 1 {
        let ctx = context(n, k, i);
        let (sk, pk) = ctx.keygen(&mut rng).unwrap();
        let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
        // k rows, each i limbs of n words less, in k0 and in k1.
        assert_eq!(words(&rlk), words(&full_rlk) - 2 * k * i * n, "i = {i}");
        let bytes = ctx.relin_key_to_bytes(&rlk);
        assert_eq!(bytes.len(), full_bytes - k * i * n * 8, "i = {i}");
        let loaded = ctx.relin_key_from_bytes(&bytes).unwrap();
        assert_eq!(ctx.relin_key_to_bytes(&loaded), bytes);
        let a: Vec<u64> = (0..n as u64).map(|j| (j * 7919 + 11) % 65537).collect();
        let b: Vec<u64> = (0..n as u64).map(|j| (j * 104_729 + 3) % 65537).collect();
        let ca = ctx
            .encrypt(&ctx.encode(&a).unwrap(), &pk, &mut rng)
            .unwrap();
        let cb = ctx
            .encrypt(&ctx.encode(&b).unwrap(), &pk, &mut rng)
            .unwrap();
        let want: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x * y % 65537).collect();
        for key in [&rlk, &loaded] {
            let c = ctx.multiply(&ca, &cb, key).unwrap();
            let got = ctx
                .decode(&ctx.decrypt_checked(&c, &sk, Decryption::Hps).unwrap())
                .unwrap();
            assert_eq!(got, want, "i = {i}");
        }
    }
}
