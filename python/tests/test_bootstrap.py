"""CKKS bootstrapping from Python at the small INSECURE presets (N = 2^11): the presets and
their refusals, keys registered per key pair, bytes and pickles (another process too), progress,
and the refusals of bootstrap (non-bootstrappable parameters, missing keys, another key pair)."""

import gc
import pickle
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rnsfhe
from rnsfhe.errors import (
    ContextMismatchError,
    KeyMismatchError,
    MissingKeyError,
    ParameterError,
    SerializationError,
)

from logistic_reference import train_reference
from worst import worst_error

# Precision of the toy preset (the Rust tests ask 24 bits in the worst slot; a margin here).
WORST = 2.0 ** -18


def toy(**kw):
    return rnsfhe.CkksParameters.bootstrappable(logn=11, security="insecure", **kw)


@pytest.fixture(scope="module")
def boot():
    """A context, a key pair and its bootstrapping keys (with the progress seen)."""
    ctx = rnsfhe.CkksContext(toy(), seed=bytes(32))
    sk, pk = ctx.keygen()
    seen = []
    keys = ctx.bootstrapping_keys(sk, progress=lambda d, t: seen.append((d, t)))
    return ctx, sk, pk, keys, seen


def unit_square(n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)


def bootstrapped(ctx, sk, pk, z, how):
    ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
    out = how(ct)
    assert out.level == ctx.bootstrap_level
    assert out.scale == ctx.scale_at(out.level)
    return worst_error(ctx.decrypt(out, sk, complex=True), z)


def test_min_level_is_exposed_and_kept(boot):
    """The toy preset (CoeffsToSlots first) bootstraps from level 0; its minimum input level says so,
    and every level from it to the top is taken."""
    ctx, sk, pk, keys, _ = boot
    assert ctx.bootstrap_min_level == 0
    z = unit_square(ctx.slots, 37)
    for level in range(ctx.bootstrap_min_level, ctx.max_level + 1):
        ct = ctx.drop_to_level(ctx.encrypt(z, pk), level)
        out = ctx.bootstrap(ct, keys)
        assert out.level == ctx.bootstrap_level
        assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST


def test_presets():
    p = toy()
    assert p.security == "insecure" and p.degree == 2048
    assert p.scale_level == 2 and p.scale_bits == 45
    p3 = toy(residual_levels=3)
    assert p3.scale_level == 3 and len(p3.chain_bits) == len(p.chain_bits) + 1
    secure = rnsfhe.CkksParameters.bootstrappable()
    assert secure.degree == 65536 and secure.security == "128"
    assert secure.scale_level == 10 and secure.chain_bits[1:11] == [40] * 10
    assert rnsfhe.CkksParameters.bootstrappable(secret="ternary") == secure
    sparse = rnsfhe.CkksParameters.bootstrappable(secret=192)  # the n16_h192 chain
    assert sparse.degree == 65536 and sparse.security == "128"
    assert sum(sparse.chain_bits) < sum(secure.chain_bits)
    assert sparse.chain_bits[1:4] == [40] * 3  # SlotsToCoeffs first: its band at the bottom
    with pytest.raises(ParameterError, match="Hamming weight 32"):  # the security gate
        rnsfhe.CkksParameters.bootstrappable(secret=32)


def test_preset_refusals():
    with pytest.raises(ParameterError, match="insecure"):
        rnsfhe.CkksParameters.bootstrappable(logn=11)
    with pytest.raises(ParameterError, match="no bootstrappable preset"):
        rnsfhe.CkksParameters.bootstrappable(logn=14, security="insecure")
    with pytest.raises(ParameterError, match="slots"):
        toy(slots=3)
    with pytest.raises(ParameterError, match="secret"):
        toy(secret="binary")


def test_bootstrap_context_and_ciphertext(boot):
    ctx, sk, pk, keys, _ = boot
    z = unit_square(ctx.slots, 1)
    assert bootstrapped(ctx, sk, pk, z, ctx.bootstrap) < WORST
    assert bootstrapped(ctx, sk, pk, z, lambda c: c.bootstrap()) < WORST
    assert bootstrapped(ctx, sk, pk, z, lambda c: ctx.bootstrap(c, keys)) < WORST


def test_bootstrap_from_a_higher_level_then_compute(boot):
    ctx, sk, pk, _, _ = boot
    z = unit_square(ctx.slots, 2).real
    out = ctx.encrypt(z, pk).bootstrap()
    ctx.relin_key(sk)  # the bootstrapping keys' relinearisation key sits low: not the pair's
    sq = out * out  # the residual levels serve
    assert sq.level == ctx.bootstrap_level - 1
    assert worst_error(ctx.decrypt(sq, sk), z * z) < 8 * WORST


STEPS = ["mod_raise", "coeffs_to_slots", "eval_mod", "slots_to_coeffs", "other", "total"]


def check_steps(times):
    """The steps in pipeline order, in seconds, summing to the total (EvalMod's wall time counted)."""
    assert list(times) == STEPS
    assert all(isinstance(t, float) and t >= 0.0 for t in times.values()), times
    assert times["coeffs_to_slots"] > 0.0 and times["eval_mod"] > 0.0 and times["slots_to_coeffs"] > 0.0
    assert sum(times[s] for s in STEPS[:-1]) == pytest.approx(times["total"], rel=1e-9)


def test_bootstrap_timed(boot):
    """bootstrap_timed refreshes as bootstrap does (same level, scale, precision; counted) and gives
    the wall time of each step; with keys given or registered; refusals as bootstrap's."""
    ctx, sk, pk, keys, _ = boot
    z = unit_square(ctx.slots, 11)
    before = ctx.bootstraps
    for how in [lambda c: ctx.bootstrap_timed(c), lambda c: ctx.bootstrap_timed(c, keys)]:
        ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
        out, times = how(ct)
        assert out.level == ctx.bootstrap_level and out.scale == ctx.scale_at(out.level)
        assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST
        check_steps(times)
    assert ctx.bootstraps == before + 2
    other_sk, other_pk = ctx.keygen()
    with pytest.raises(MissingKeyError):
        ctx.bootstrap_timed(ctx.encrypt(z, other_pk))


def test_bootstrap_timed_meta_bts_sums_both_iterations():
    """With META-BTS each step is the sum over both bootstraps: the steps still add up to the total,
    which exceeds one plain bootstrap's steps of the same chain."""
    ctx = rnsfhe.CkksContext(toy(meta_bts=20), seed=bytes([6] * 32))
    sk, pk = ctx.keygen()
    ctx.bootstrapping_keys(sk, progress=False)
    z = unit_square(ctx.slots, 12)
    out, times = ctx.bootstrap_timed(ctx.drop_to_level(ctx.encrypt(z, pk), 0))
    check_steps(times)
    assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST


def test_progress_callable(boot):
    _, _, _, _, seen = boot
    total = seen[-1][1]
    assert [d for d, _ in seen] == list(range(1, total + 1))
    assert all(t == total for _, t in seen)


def test_progress_default_and_off(capfd):
    ctx = rnsfhe.CkksContext(toy(), seed=bytes([1] * 32))
    sk, _ = ctx.keygen()
    ctx.bootstrapping_keys(sk, progress=False)
    assert capfd.readouterr().err == ""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        ctx.bootstrapping_keys(sk)
        assert "bootstrapping keys" in capfd.readouterr().err
    with pytest.raises(TypeError, match="progress"):
        ctx.bootstrapping_keys(sk, progress=3)


def test_progress_callback_error_surfaces():
    ctx = rnsfhe.CkksContext(toy(), seed=bytes([2] * 32))
    sk, _ = ctx.keygen()

    def fail(done, total):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        ctx.bootstrapping_keys(sk, progress=fail)


def test_keys_size_and_elements(boot):
    _, _, _, keys, seen = boot
    assert keys.nbytes == len(keys.to_bytes()) > 0
    assert 0 < len(keys.elements) == seen[-1][1] - 1  # the relinearisation key besides
    assert "BootstrappingKeys" in repr(keys) and keys.key_id in repr(keys)


def test_not_bootstrappable():
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=2048, levels=3, security="insecure"))
    sk, pk = ctx.keygen()
    with pytest.raises(ParameterError, match="not bootstrappable"):
        ctx.bootstrapping_keys(sk)
    ct = ctx.encrypt([0.5], pk)
    with pytest.raises(ParameterError, match="bootstrappable"):
        ct.bootstrap()
    with pytest.raises(ParameterError, match="bootstrappable"):
        ctx.bootstrap_level


def test_missing_and_foreign_keys(boot):
    ctx, _, _, keys, _ = boot
    _, pk2 = ctx.keygen()  # another user of the same parameters
    ct2 = ctx.drop_to_level(ctx.encrypt([0.25], pk2), 0)
    with pytest.raises(MissingKeyError, match="bootstrapping_keys"):
        ct2.bootstrap()
    with pytest.raises(KeyMismatchError):
        ctx.bootstrap(ct2, keys)


def test_keys_of_another_context_refused(boot):
    _, _, _, keys, _ = boot
    other = rnsfhe.CkksContext(toy(residual_levels=3))
    with pytest.raises(ContextMismatchError):
        other.register_bootstrapping_keys(keys)
    with pytest.raises(ContextMismatchError):
        other.bootstrapping_keys_from_bytes(keys.to_bytes())
    with pytest.raises(SerializationError):
        other.bootstrapping_keys_from_bytes(b"not keys")


def test_bytes_and_pickle_round_trip(boot):
    ctx, sk, pk, keys, _ = boot
    for loaded in [rnsfhe.BootstrappingKeys.from_bytes(ctx, keys.to_bytes()),
                   ctx.bootstrapping_keys_from_bytes(keys.to_bytes()),
                   pickle.loads(pickle.dumps(keys, protocol=5))]:
        assert loaded.key_id == keys.key_id and loaded.to_bytes() == keys.to_bytes()
        z = unit_square(ctx.slots, 3)
        assert bootstrapped(ctx, sk, pk, z, lambda c: ctx.bootstrap(c, loaded)) < WORST


def test_two_presets_of_one_chain_side_by_side():
    """Two presets of one chain (all 1024 slots, and 256: sparse packing on the same CKKS
    parameters): each context keeps the preset its parameters carry, so the two bootstrap
    alternately, each with its own slots (the preset is part of the parameters' identity: bytes,
    pickles, equality, repr). Before, one table of presets per chain served whichever was named
    last."""
    full, sparse = toy(), toy(slots=256)
    assert full.to_bytes()[:-64] == sparse.to_bytes()[:-64] and full != sparse
    assert "slots=256" in repr(sparse) and "slots=1024" in repr(full)
    a = rnsfhe.CkksContext(full, seed=bytes([6] * 32))
    b = rnsfhe.CkksContext(sparse, seed=bytes([7] * 32))
    (sa, pa), (sb, pb) = a.keygen(), b.keygen()
    ka, kb = a.bootstrapping_keys(sa, progress=False), b.bootstrapping_keys(sb, progress=False)
    assert len(kb.elements) < len(ka.elements)  # the sparse bootstrap's rotations
    cts = {}
    for _ in range(2):
        for ctx, sk, pk, n in [(a, sa, pa, 1024), (b, sb, pb, 256)]:
            z = unit_square(n, n)
            ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
            out = ct.bootstrap()
            assert out.slots == n and out.level == ctx.bootstrap_level
            assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST
            cts[n] = ct
    with pytest.raises(ContextMismatchError, match="slots=256"):  # keys of the other preset
        a.bootstrapping_keys_from_bytes(kb.to_bytes())
    with pytest.raises(ContextMismatchError):
        a.bootstrap(cts[1024], kb)
    with pytest.raises(ContextMismatchError):  # a ciphertext of the other preset's context
        a.bootstrap(cts[256])
    # Bytes and pickles keep the preset.
    assert rnsfhe.CkksParameters.from_bytes(sparse.to_bytes()) == sparse == b.params
    assert pickle.loads(pickle.dumps(sparse)) == sparse
    assert rnsfhe.CkksContext.from_bytes(b.to_bytes()).params == sparse
    assert pickle.loads(pickle.dumps(b)).params == sparse
    assert pickle.loads(pickle.dumps(cts[256])).bootstrap().slots == 256
    # Bytes without the preset (before parameters carried it: the CKKS parameters' alone) read as
    # plain parameters, which take the preset of the first bootstrapping keys loaded for them and
    # refuse keys of another.
    old = rnsfhe.CkksParameters.from_bytes(sparse.to_bytes()[:-64])
    assert old != sparse and old.chain_bits == sparse.chain_bits
    assert "bootstrappable" not in repr(old)
    c = rnsfhe.CkksContext(old)
    with pytest.raises(ParameterError, match="not bootstrappable"):
        c.bootstrap_level
    c.register_bootstrapping_keys(c.bootstrapping_keys_from_bytes(kb.to_bytes()))
    assert c.bootstrap_level == b.bootstrap_level
    with pytest.raises(ContextMismatchError, match="slots=1024"):
        c.bootstrapping_keys_from_bytes(ka.to_bytes())
    meta = toy(meta_bts=True)  # a preset of another chain after these parameters' bytes
    with pytest.raises(SerializationError, match="other CKKS parameters"):
        rnsfhe.CkksParameters.from_bytes(full.to_bytes()[:-64] + meta.to_bytes()[-64:])


def test_unpickling_joins_the_live_context(boot):
    """Objects unpickled (or read with `from_bytes`) while their bootstrappable context lives join
    that context, its registered keys and bootstrapping keys included, without their parameter
    bytes being parsed and the preset's chain rebuilt again; only bytes equal to a live context's
    are taken so: corrupted or foreign bytes are refused as before, and the bytes of another preset
    of the same chain give that preset's parameters."""
    ctx, sk, pk, _, _ = boot
    z = unit_square(ctx.slots, 5)
    ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
    loaded = [pickle.loads(pickle.dumps(ct, protocol=p)) for p in (2, 5)]
    loaded.append(rnsfhe.CkksCiphertext.from_bytes(pickle.loads(pickle.dumps(ctx)), ct.to_bytes()))
    loaded.append(rnsfhe.CkksContext.from_bytes(ctx.to_bytes()).ciphertext_from_bytes(ct.to_bytes()))
    for c in loaded:
        assert not np.any(ctx.decrypt(c - ct, sk))  # the same context: no ContextMismatchError
        out = c.bootstrap()  # the live context's bootstrapping keys
        assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST
    for p in [pickle.loads(pickle.dumps(ctx.params)), rnsfhe.CkksParameters.from_bytes(
            ctx.params.to_bytes())]:
        assert p == ctx.params and repr(p) == repr(ctx.params)
        assert p.chain_bits == ctx.params.chain_bits and p.scale_bits == ctx.params.scale_bits
    restore, (kind, params, data) = ct.__reduce_ex__(2)
    assert restore(kind, params, data).level == 0
    at = len(params) - 64  # the preset: magic, then log_degree, slots, ...
    slots = params[:at + 16] + (256).to_bytes(8, "little") + params[at + 24:]
    other = restore("CkksParameters", slots, b"")
    assert other == toy(slots=256) and other != ctx.params
    with pytest.raises(ContextMismatchError, match="slots=256"):
        ctx.bootstrap(restore(kind, slots, data))
    meta = toy(meta_bts=True).to_bytes()[-64:]  # a preset of another chain
    flip = bytes([params[100] ^ 1])
    for bad, message in [(params[:at] + meta, "other CKKS parameters"),
                         (params[:100] + flip + params[101:], "other CKKS parameters"),
                         (params[:-1] + b"\xff", "not a bootstrappable preset"),
                         (params[:-1], "checksum")]:
        for k in (kind, "CkksParameters", "CkksContext"):
            with pytest.raises(SerializationError, match=message):
                restore(k, bad, data)


def test_unpickling_with_no_live_context_makes_it():
    """With every object of a parameter set gone, unpickling makes its context again (parsed and
    checked): a fresh one, without the keys the first one had registered."""
    def send():
        ctx = rnsfhe.CkksContext(toy(slots=128), seed=bytes([8] * 32))
        sk, pk = ctx.keygen()
        ctx.relin_key(sk)  # registered in this context only
        z = unit_square(128, 6)
        ct = ctx.encrypt(z, pk)
        assert worst_error(ctx.decrypt(ct * ct, sk, complex=True), z * z) < WORST
        return pickle.dumps(ct, protocol=5), sk.to_bytes(allow_secret=True), z

    blob, sk_bytes, z = send()
    gc.collect()
    ct = pickle.loads(blob)
    ctx = ct.context
    assert "bootstrappable(logn=11, slots=128" in repr(ctx)
    sk = ctx.secret_key_from_bytes(sk_bytes)
    assert worst_error(ctx.decrypt(ct, sk, complex=True), z) < WORST
    with pytest.raises(MissingKeyError):  # a new context: the first one's relinearisation key died
        ct * ct
    ctx.relin_key(sk)
    again = pickle.loads(blob)  # now the live context's
    assert worst_error(ctx.decrypt(again * ct, sk, complex=True), z * z) < WORST


CHILD = """
import sys, rnsfhe
params, keys, ct = (open(p, 'rb').read() for p in sys.argv[1:4])
ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters.from_bytes(params))  # bootstrappable(): not called
ctx.register_bootstrapping_keys(ctx.bootstrapping_keys_from_bytes(keys))
out = rnsfhe.CkksCiphertext.from_bytes(ctx, ct).bootstrap()
open(sys.argv[4], 'wb').write(out.to_bytes())
"""


def test_keys_in_another_process(boot, tmp_path):
    """The keys carry their preset: a process that never called `bootstrappable` bootstraps."""
    ctx, sk, pk, keys, _ = boot
    z = unit_square(ctx.slots, 4)
    ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
    paths = [tmp_path / n for n in ("params", "keys", "ct", "out")]
    for p, b in zip(paths, [ctx.params.to_bytes(), keys.to_bytes(), ct.to_bytes()]):
        p.write_bytes(b)
    subprocess.run([sys.executable, "-c", CHILD, *map(str, paths)], check=True)
    out = rnsfhe.CkksCiphertext.from_bytes(ctx, paths[3].read_bytes())
    assert out.level == ctx.bootstrap_level
    assert worst_error(ctx.decrypt(out, sk, complex=True), z) < WORST


def test_logistic_training_refreshed_by_bootstrapping():
    """Cheon et al. (SAC 2018)'s training past its levels: 5 iterations at a toy preset with 7 residual levels
    (3 iterations from the top, then one iteration per bootstrap) equal the clear training."""
    example = Path(__file__).resolve().parents[2] / "examples" / "python" / "logistic_regression.py"
    x, y = runpy.run_path(str(example))["load"]()
    x, y = x[::3], y[::3]  # 63 mothers: 64 x 16 = 1024 slots, the toy preset's
    z, samples, features = rnsfhe.logistic.pack(x, y)
    ctx = rnsfhe.CkksContext(toy(residual_levels=7), seed=bytes([3] * 32))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    gk = ctx.galois_keys(sk, steps=rnsfhe.logistic.rotation_steps(samples, features),
                         conjugation=True, level=ctx.bootstrap_level)
    full = ctx.galois_keys(sk, steps=[1])
    assert len(gk.to_bytes()) < len(full.to_bytes()) * len(gk.elements) * 0.6  # keys at a level
    ctx.register_keys(galois_keys=gk)
    ctx.bootstrapping_keys(sk, progress=False)
    seen = []
    enc = ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 5, bootstrap=True,
                             progress=lambda d, t: seen.append(d))
    assert seen == [1, 2, 3, 4, 5]
    w = ctx.decrypt(enc, sk)[:features]
    clear = train_reference(x, y, 5)  # Cheon et al. (SAC 2018)'s training in numpy, not the library's
    assert worst_error(w, clear) < 1e-3, (w, clear)
    with pytest.raises(rnsfhe.errors.ParameterError):  # without bootstrapping: out of levels
        ctx.train_logistic(ctx.encrypt(z, pk), samples, features, 5)


def test_meta_bts_presets_and_refusals():
    dense = rnsfhe.CkksParameters.bootstrappable(meta_bts=True)  # n16_meta_bts
    assert dense.security == "128" and dense.chain_bits[1:8] == [53] * 7
    sparse = rnsfhe.CkksParameters.bootstrappable(secret=192, meta_bts=True)  # n16_h192_meta_bts
    assert sparse.security == "128" and sparse.chain_bits[1:6] == [53] * 5
    assert rnsfhe.CkksParameters.bootstrappable(meta_bts=False) == rnsfhe.CkksParameters.bootstrappable()
    for bad in [0, 41, -1, "yes", 2.5]:
        with pytest.raises(ParameterError, match="meta_bts"):
            toy(meta_bts=bad)
    with pytest.raises(ParameterError, match="security"):  # beyond the gate's bound for h = 192
        rnsfhe.CkksParameters.bootstrappable(secret=192, meta_bts=True, residual_levels=6)
    with pytest.raises(ParameterError, match="q_0"):  # scale 2^55 times the message ratio 2^10
        toy(meta_bts=True, scale_bits=55)


def test_meta_bts_second_iteration_gains():
    """META-BTS at the toy preset (k = 20): against the decrypted input (what a bootstrap refreshes)
    one bootstrap leaves about 2^-27 on average; the second iteration brings it to the floor of the
    residual scale, about 2^-38 (the Rust tests' figures). Skipped or with the wrong sign, the error
    stays at one bootstrap's or doubles. The keys' bytes carry the preset."""
    ctx = rnsfhe.CkksContext(toy(meta_bts=20), seed=bytes([5] * 32))
    sk, pk = ctx.keygen()
    keys = ctx.bootstrapping_keys(sk, progress=False)
    assert ctx.bootstrap_level == 2  # the reserved prime above the residual levels is spent
    z = unit_square(ctx.slots, 5)
    ct = ctx.drop_to_level(ctx.encrypt(z, pk), 0)
    want = ctx.decrypt(ct, sk, complex=True)
    loaded = ctx.bootstrapping_keys_from_bytes(keys.to_bytes())
    for out in [ct.bootstrap(), ctx.bootstrap(ct, loaded)]:
        assert out.level == 2 and out.scale == ctx.scale_at(2)
        got = ctx.decrypt(out, sk, complex=True)
        worst, mean = worst_error(got, want), np.mean(np.abs(got - want))
        assert worst < 2.0 ** -33 and mean < 2.0 ** -35, np.log2([mean, worst])
