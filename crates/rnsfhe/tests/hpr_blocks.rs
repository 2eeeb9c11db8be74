//! HPR-FV multiplication and relinearisation at a degree where the key-switching and Toeplitz sums
//! run over several blocks of coefficients (Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1; see `HprContext::sums_of_products`),
//! against the exact product in Z_t[X]/(X^n + 1).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::hpr::depth::plain_product;
use rnsfhe::hpr::{HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;
use rnsfhe_math::sample::Csprng;

#[test]
fn products_over_several_coefficient_blocks() {
    let (n, t) = (4096, 97);
    let p = HprParameters::new(n, t, 2, 3, 61, 3.2, Security::InsecureResearchOnly).unwrap();
    let c = HprContext::new(&p).unwrap();
    let mut rng = Csprng::from_seed([41; 32]);
    let sk = c.secret_key(&mut rng).unwrap();
    let pk = c.public_key(&sk, &mut rng).unwrap();
    let msg = |rng: &mut Csprng| -> Vec<u64> { (0..n).map(|_| rng.next_u64() % t).collect() };
    let (a, b) = (msg(&mut rng), msg(&mut rng));
    let (ca, cb) = (
        c.encrypt(&pk, &a, &mut rng).unwrap(),
        c.encrypt(&pk, &b, &mut rng).unwrap(),
    );
    let ab = plain_product(&a, &b, t).unwrap();
    for mode in [Relinearization::PerResidue, Relinearization::PerDigit] {
        let rlk = c.relin_key(&sk, mode, &mut rng).unwrap();
        let prod = c.mul(&ca, &cb, &rlk).unwrap();
        assert_eq!(c.decrypt(&sk, &prod).unwrap(), ab, "{mode:?}");
        let three = c.mul_no_relin(&ca, &cb).unwrap();
        let relin = c.relinearize(&three, &rlk).unwrap();
        assert_eq!(c.decrypt(&sk, &relin).unwrap(), ab, "{mode:?}");
        let sq = c.mul(&prod, &prod, &rlk).unwrap();
        assert_eq!(
            c.decrypt(&sk, &sq).unwrap(),
            plain_product(&ab, &ab, t).unwrap(),
            "{mode:?}"
        );
    }
}
