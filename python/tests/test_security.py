"""Parameters outside the security table refused unless security="insecure", seeded contexts
marked as not secure, and BFV results that are either right or refused (never wrong with budget left)."""

import numpy as np
import pytest

import rnsfhe


@pytest.mark.parametrize("h", [0, 1, 2, 16])
def test_bfv_sparse_secret_refused(h):
    with pytest.raises(rnsfhe.ParameterError, match="(Hamming weight|hamming_weight)"):
        rnsfhe.BfvParameters(degree=8192, hamming_weight=h)


@pytest.mark.parametrize("h", [1, 8])
def test_ckks_sparse_secret_refused(h):
    with pytest.raises(rnsfhe.ParameterError, match="Hamming weight"):
        rnsfhe.CkksParameters(degree=16384, levels=4, scale_bits=40, hamming_weight=h)


@pytest.mark.parametrize("sigma", [0.5, 1.0])
def test_small_sigma_refused(sigma):
    with pytest.raises(rnsfhe.ParameterError, match="sigma"):
        rnsfhe.BfvParameters(degree=8192, sigma=sigma)
    with pytest.raises(rnsfhe.ParameterError, match="sigma"):
        rnsfhe.CkksParameters(degree=16384, levels=4, scale_bits=40, sigma=sigma)


def test_insecure_admits_research_secrets_but_not_impossible_weights():
    p = rnsfhe.BfvParameters(degree=8192, hamming_weight=16, sigma=1.0, security="insecure")
    assert p.security == "insecure"
    for h in [0, 8193]:
        with pytest.raises(rnsfhe.ParameterError, match="1..=n = 8192"):
            rnsfhe.BfvParameters(degree=8192, hamming_weight=h, security="insecure")


def test_seeded_context_is_marked_not_secure():
    p = rnsfhe.BfvParameters(degree=4096, plain_modulus=786433)
    seeded, fresh = rnsfhe.BfvContext(p, seed=bytes(32)), rnsfhe.BfvContext(p)
    assert seeded.security == "insecure (seeded)" and "seeded (NOT secure)" in repr(seeded)
    assert fresh.security == "128" and "seeded" not in repr(fresh)
    c = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=8192, levels=2, scale_bits=40),
                           seed=bytes(32))
    assert c.security == "insecure (seeded)" and "seeded (NOT secure)" in repr(c)
    # Keys made by a seeded context say so too; keys of a fresh one do not.
    sk, pk = seeded.keygen()
    for k in [sk, pk, seeded.relin_key(sk), seeded.galois_keys(sk, steps=[1])]:
        assert "seeded (NOT secure)" in repr(k), repr(k)
    fsk, fpk = fresh.keygen()
    assert "seeded" not in repr(fsk) and "seeded" not in repr(fpk)


def test_bfv_sum_of_squares_is_right_or_refused():
    """decrypt(sum_slots(x * x)) at n = 4096, t = 786433 (wrong with budget left before the fix), beside
    the sum alone and the product alone, which keep budget: each result is right or refused, and the
    loop reaches both (a check that only ever refuses would pass a decryption that is always wrong)."""
    t = 786433
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=4096, plain_modulus=t))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk, for_sum=True)
    rng = np.random.default_rng(5)
    outcomes = {"right": 0, "refused": 0}
    for _ in range(3):
        x = rng.integers(0, t, 4096)
        sq = [int(v) * int(v) % t for v in x]
        cases = [
            (ctx.sum_slots(ctx.encrypt(x, pk)), int(x.sum()) % t),
            (ctx.encrypt(x, pk) * ctx.encrypt(x, pk), np.array(sq)),
            (ctx.sum_slots(ctx.encrypt(x, pk) * ctx.encrypt(x, pk)), sum(sq) % t),
        ]
        for s, want in cases:
            unchecked = ctx.decrypt(s, sk, check_noise=False)
            if not np.all(unchecked == want):
                assert ctx.noise_budget(s, sk) == 0
            try:
                assert np.all(ctx.decrypt(s, sk) == want)
                outcomes["right"] += 1
            except rnsfhe.NoiseBudgetExhaustedError:
                outcomes["refused"] += 1
    assert outcomes["right"] >= 3 and outcomes["refused"] >= 1, outcomes
