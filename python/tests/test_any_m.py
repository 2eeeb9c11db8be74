"""FV (BFV) and BGV over a general cyclotomic ring Z[X]/(Phi_m) from Python (Bajard et al. (SAC 2017)): slots of
GF(t^d) as (l, d) arrays, slot-wise add / mul, hypercube rotations and Frobenius against a pure-Python
model of the slots, bytes and pickling keeping m, and the refusals."""

import math
import pickle

import numpy as np
import pytest

import rnsfhe

SEED = bytes(range(32))
# (m, t): t = 2 gives boolean SIMD with d-bit slots; 1021 = 1 mod 255 gives 128 integer slots (d = 1).
CASES = [(255, 2), (771, 2), (255, 1021)]


def make(scheme, m, t):
    if scheme == "bfv":
        p = rnsfhe.BfvParameters(cyclotomic_index=m, plain_modulus=t, moduli_bits=[50, 50, 50],
                                 special_moduli_bits=[60], multiplication="hps", security="insecure")
        ctx = rnsfhe.BfvContext(p, seed=SEED)
    else:
        p = rnsfhe.BgvParameters(cyclotomic_index=m, plain_modulus=t, moduli_bits=[50, 50, 50],
                                 special_moduli_bits=[55], security="insecure")
        ctx = rnsfhe.BgvContext(p, seed=SEED)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    ctx.galois_keys(sk)  # +-1 along every hypercube dimension and Frobenius
    return ctx, sk, pk


@pytest.fixture(scope="module", params=[(s, m, t) for s in ("bfv", "bgv") for (m, t) in CASES],
                ids=lambda c: f"{c[0]}-m{c[1]}-t{c[2]}")
def ring(request):
    return make(*request.param)


class Slots:
    """A pure-Python model of the l slots of GF(t^d) = GF(t)[Y]/(G) and of X -> X^g on them, from the
    hypercube of Z_m^* / <t> (slot e = mixed-radix coordinates, dimension 0 most significant, standing
    for the coset of h_e = prod g_i^(e_i) mod m)."""

    def __init__(self, ctx):
        self.m, self.t, self.d = ctx.cyclotomic_index, ctx.plain_modulus, ctx.slot_degree
        self.g = ctx.slot_polynomial
        self.dims = ctx.hypercube
        self.l = ctx.slots
        self.reps = []
        for e in range(self.l):
            h, rest = 1, e
            coords = []
            for _, order, _ in reversed(self.dims):
                coords.append(rest % order)
                rest //= order
            for (gen, _, _), c in zip(self.dims, reversed(coords)):
                h = h * pow(gen, c, self.m) % self.m
            self.reps.append(h)
        # u -> (e, j) with u = h_e t^j mod m.
        self.locate = {}
        for e, h in enumerate(self.reps):
            u = h
            for j in range(self.d):
                self.locate[u] = (e, j)
                u = u * self.t % self.m

    def mul(self, x, y):
        prod = [0] * (2 * self.d - 1)
        for i, a in enumerate(x):
            for j, b in enumerate(y):
                prod[i + j] = (prod[i + j] + int(a) * int(b)) % self.t
        for k in range(len(prod) - 1, self.d - 1, -1):  # reduce by the monic G
            c = prod[k]
            if c:
                for i in range(self.d + 1):
                    prod[k - self.d + i] = (prod[k - self.d + i] - c * self.g[i]) % self.t
        return prod[: self.d]

    def power(self, x, e):
        r, b = [1] + [0] * (self.d - 1), list(x)
        while e:
            if e & 1:
                r = self.mul(r, b)
            b = self.mul(b, b)
            e >>= 1
        return r

    def galois(self, slots, g):
        """X -> X^g: new slot of h holds the old slot e' of h / g = h_e' t^j, raised to t^-j."""
        g_inv = pow(g, -1, self.m)
        out = []
        for h in self.reps:
            e, j = self.locate[h * g_inv % self.m]
            out.append(self.power(slots[e], self.t ** ((self.d - j) % self.d)))
        return np.array(out, dtype=np.int64).reshape(self.l, self.d)

    def rotation(self, dim, k):
        gen, order, _ = self.dims[dim]
        return pow(gen, k % order, self.m)


def random_slots(ctx, rng):
    return rng.integers(0, ctx.plain_modulus, size=(ctx.slots, ctx.slot_degree))


def test_parameters_and_hypercube(ring):
    ctx, *_ = ring
    m, t, d, l = ctx.cyclotomic_index, ctx.plain_modulus, ctx.slot_degree, ctx.slots
    phi = sum(1 for x in range(1, m) if math.gcd(x, m) == 1)
    assert ctx.degree == phi == l * d and ctx.params.cyclotomic_index == m
    order = next(k for k in range(1, m) if pow(t, k, m) == 1)
    assert d == order
    assert math.prod(o for _, o, _ in ctx.hypercube) == l
    assert len(ctx.slot_polynomial) == d + 1 and ctx.slot_polynomial[-1] == 1
    assert f"cyclotomic_index={m}" in repr(ctx.params)


def test_slotwise_add_and_mul(ring, rng):
    ctx, sk, pk = ring
    model = Slots(ctx)
    t = ctx.plain_modulus
    a, b = random_slots(ctx, rng), random_slots(ctx, rng)
    x, y = ctx.encrypt(a, pk), ctx.encrypt(b, sk)
    dec = ctx.decrypt(x, sk)
    assert dec.shape == (ctx.slots, ctx.slot_degree) and dec.dtype == np.int64
    assert np.array_equal(dec, a)
    assert np.array_equal(ctx.decrypt(x + y, sk), (a + b) % t)
    assert np.array_equal(ctx.decrypt(x - y, sk), (a - b) % t)
    want = np.array([model.mul(u, v) for u, v in zip(a, b)], dtype=np.int64)
    assert np.array_equal(ctx.decrypt(x * y, sk), want)
    assert np.array_equal(ctx.decrypt(x * b, sk), want)
    assert np.array_equal(ctx.decrypt(ctx.mul_plain(x, ctx.encode(b)), sk), want)
    one = np.zeros_like(a)
    one[:, 0] = 1
    assert np.array_equal(ctx.decrypt(x + 1, sk), (a + one) % t)
    cube = np.array([model.power(u, 3) for u in a], dtype=np.int64)
    assert np.array_equal(ctx.decrypt(x ** 3, sk), cube)
    signed = ctx.decrypt(x, sk, signed=True)
    assert np.array_equal(signed % t, a) and signed.max() <= t // 2


def test_rotations_and_frobenius(ring, rng):
    ctx, sk, pk = ring
    model = Slots(ctx)
    a = random_slots(ctx, rng)
    x = ctx.encrypt(a, pk)
    for dim, (_, order, _) in enumerate(ctx.hypercube):
        for k in (1, -1, 2):
            want = model.galois(a, model.rotation(dim, k))
            assert np.array_equal(ctx.decrypt(ctx.rotate_dimension(x, dim, k), sk), want), (dim, k)
        assert np.array_equal(ctx.decrypt(x.rotate_dimension(dim, 1), sk),
                              model.galois(a, model.rotation(dim, 1)))
    for p in (1, 2):
        want = np.array([model.power(u, ctx.plain_modulus ** p) for u in a], dtype=np.int64)
        assert np.array_equal(want, model.galois(a, pow(ctx.plain_modulus, p, model.m)))
        assert np.array_equal(ctx.decrypt(ctx.frobenius(x, p), sk), want)
    assert np.array_equal(ctx.decrypt(x.frobenius(), sk), model.galois(a, model.t % model.m))


def test_keys_for_the_rotations_asked_for(rng):
    ctx, sk, pk = make("bgv", 255, 2)
    model = Slots(ctx)
    gk = ctx.galois_keys(sk, rotations=[(0, 3)], frobenius=[2])
    g = model.rotation(0, 3)
    assert sorted(gk.elements) == sorted({g, pow(2, 2, 255)})
    a = random_slots(ctx, rng)
    x = ctx.encrypt(a, pk)
    assert np.array_equal(ctx.decrypt(ctx.rotate_dimension(x, 0, 3, gk), sk), model.galois(a, g))
    with pytest.raises(rnsfhe.MissingKeyError):
        ctx.rotate_dimension(x, 0, 1, gk)


@pytest.mark.parametrize("scheme", ["bfv", "bgv"])
def test_bytes_and_pickle_keep_m(scheme, rng):
    ctx, sk, pk = make(scheme, 255, 2)
    a = random_slots(ctx, rng)
    x = ctx.encrypt(a, pk)
    cls = type(ctx)
    back = cls.from_bytes(ctx.to_bytes())
    assert back.cyclotomic_index == 255 and back.degree == 128 and back.slots == ctx.slots
    p = pickle.loads(pickle.dumps(ctx.params))
    assert p.cyclotomic_index == 255 and p == ctx.params
    y = pickle.loads(pickle.dumps(x))
    assert y.context.cyclotomic_index == 255
    assert np.array_equal(ctx.decrypt(y, sk), a)
    z = type(x).from_bytes(ctx, x.to_bytes())
    assert np.array_equal(ctx.decrypt(z + y, sk), (2 * a) % 2)
    pt = pickle.loads(pickle.dumps(ctx.encode(a)))
    assert np.array_equal(ctx.decode(pt), a)
    gk = pickle.loads(pickle.dumps(ctx.galois_keys(sk)))
    model = Slots(back)
    want = model.galois(a, model.rotation(0, 1))
    assert np.array_equal(back.decrypt(back.rotate_dimension(y, 0, 1, gk), sk), want)


def test_refusals(rng):
    for bad_m in (0, 1, 2):
        with pytest.raises(rnsfhe.ParameterError):
            rnsfhe.BgvParameters(cyclotomic_index=bad_m, plain_modulus=2, moduli_bits=[50, 50],
                                 special_moduli_bits=[55], security="insecure")
    with pytest.raises(rnsfhe.ParameterError):
        rnsfhe.BfvParameters(cyclotomic_index=2, plain_modulus=2, moduli_bits=[50, 50],
                             security="insecure")
    # A modulus that is not 1 mod lcm(N, m, t) (Bajard et al. (SAC 2017) Lemma 3).
    with pytest.raises(rnsfhe.ParameterError, match="65537"):
        rnsfhe.BgvParameters(cyclotomic_index=255, plain_modulus=2, moduli=[65537], security="insecure")
    # t = 5 divides m = 255: no slots.
    with pytest.raises(rnsfhe.ParameterError):
        p = rnsfhe.BfvParameters(cyclotomic_index=255, plain_modulus=5, moduli_bits=[50, 50, 50],
                                 special_moduli_bits=[60], security="insecure")
        rnsfhe.BfvContext(p).encode(np.zeros((16, 8), dtype=np.int64))
    ctx, sk, pk = make("bfv", 255, 2)
    l, d = ctx.slots, ctx.slot_degree
    for shape in [(l,), (l, d + 1), (l - 1, d), (l * d,), (l, d, 1)]:
        with pytest.raises(rnsfhe.LengthMismatchError):
            ctx.encrypt(np.zeros(shape, dtype=np.int64), pk)
    with pytest.raises(rnsfhe.OutOfRangeError):
        ctx.encode(np.full((l, d), 2))
    x = ctx.encrypt(random_slots(ctx, rng), pk)
    with pytest.raises(rnsfhe.OutOfRangeError):
        ctx.rotate_dimension(x, len(ctx.hypercube), 1)
    with pytest.raises(rnsfhe.ParameterError):
        ctx.galois_keys(sk, steps=[1])
    # d = 1: a flat array of the l slots is accepted as well as (l, 1).
    c1, sk1, pk1 = make("bgv", 255, 1021)
    v = rng.integers(0, 1021, size=c1.slots)
    assert np.array_equal(c1.decrypt(c1.encrypt(v, pk1), sk1), v.reshape(-1, 1))
    # Power-of-two rings have no hypercube of GF(t^d) slots.
    p2 = rnsfhe.BgvContext(rnsfhe.BgvParameters(degree=1024, plain_modulus=65537,
                                                moduli_bits=[40, 40], special_moduli_bits=[45],
                                                security="insecure"))
    assert p2.slot_degree == 1 and p2.cyclotomic_index == 2048
    with pytest.raises(rnsfhe.ParameterError):
        p2.hypercube


# --- reduction="barrett" | "optimized" | "montgomery" (Bajard et al. (SAC 2017) sections 3-4) ---

REDUCTIONS = ["barrett", "optimized", "montgomery"]


def make_reduced(scheme, m, reduction, galois=True):
    kw = dict(cyclotomic_index=m, plain_modulus=2, moduli_bits=[50, 50, 50], security="insecure",
              reduction=reduction)
    if scheme == "bfv":
        p = rnsfhe.BfvParameters(special_moduli_bits=[60], multiplication="hps", **kw)
        ctx = rnsfhe.BfvContext(p, seed=SEED)
    else:
        p = rnsfhe.BgvParameters(special_moduli_bits=[55], **kw)
        ctx = rnsfhe.BgvContext(p, seed=SEED)
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)
    if galois:
        ctx.galois_keys(sk, rotations=[(0, 1)])
    return ctx, sk, pk


@pytest.mark.parametrize("scheme", ["bfv", "bgv"])
@pytest.mark.parametrize("m", [255, 21])
def test_each_reduction_same_slots(scheme, m):
    """add / mul / rotate (and BGV's modulus switch) decrypt to the slot model under every reduction."""
    got = {}
    for red in REDUCTIONS:
        ctx, sk, pk = make_reduced(scheme, m, red)
        assert ctx.params.reduction == red and f'reduction="{red}"' in repr(ctx.params)
        model = Slots(ctx)
        a, b = random_slots(ctx, np.random.default_rng(m)), random_slots(ctx, np.random.default_rng(m + 1))
        x, y = ctx.encrypt(a, pk), ctx.encrypt(b, sk)
        prod = np.array([model.mul(u, v) for u, v in zip(a, b)], dtype=np.int64)
        g = model.rotation(0, 1)
        xy = x * y
        out = [ctx.decrypt(x + y, sk), ctx.decrypt(xy, sk), ctx.decrypt(ctx.rotate_dimension(x, 0, 1), sk)]
        assert np.array_equal(out[0], (a + b) % 2), red
        assert np.array_equal(out[1], prod), red
        assert np.array_equal(out[2], model.galois(a, g)), red
        if scheme == "bgv":
            z = xy.mod_switch()
            assert z.level == xy.level - 1
            out.append(ctx.decrypt(z * x.mod_switch(), sk))
            want = np.array([model.mul(u, v) for u, v in zip(prod, a)], dtype=np.int64)
            assert np.array_equal(out[3], want), red
        got[red] = out
    for red in REDUCTIONS[1:]:
        assert all(np.array_equal(u, v) for u, v in zip(got[red], got["barrett"]))


@pytest.mark.parametrize("scheme", ["bfv", "bgv"])
def test_reduction_bytes_pickle_and_refusals(scheme):
    rng = np.random.default_rng(7)
    ctxs = {red: make_reduced(scheme, 255, red, galois=False) for red in REDUCTIONS}
    for red, (ctx, sk, pk) in ctxs.items():
        p = ctx.params
        assert type(p).from_bytes(p.to_bytes()).reduction == red
        q = pickle.loads(pickle.dumps(p))
        assert q.reduction == red and q == p
        c = pickle.loads(pickle.dumps(ctx))
        assert c.params.reduction == red
        a = random_slots(ctx, rng)
        y = pickle.loads(pickle.dumps(ctx.encrypt(a, pk)))
        assert y.context.params.reduction == red and np.array_equal(ctx.decrypt(y, sk), a)
    assert ctxs["barrett"][0].params != ctxs["optimized"][0].params
    # Alg. 1 and Alg. 2 give bit-identical residues: their ciphertexts are interchangeable.
    (bc, bsk, bpk), (oc, _, _) = ctxs["barrett"], ctxs["optimized"]
    a = random_slots(bc, rng)
    x = oc.ciphertext_from_bytes(bc.encrypt(a, bpk).to_bytes())
    assert np.array_equal(oc.decrypt(x, oc.secret_key_from_bytes(bsk.to_bytes(allow_secret=True))), a)
    # Montgomery bytes (BGV: ciphertexts c M and keys with M^2; FV: relinearisation keys with M) are
    # refused by a Barrett context, and the other way round.
    mc, msk, mpk = ctxs["montgomery"]
    for barrett in (bc, oc):
        with pytest.raises(rnsfhe.ContextMismatchError):
            barrett.relin_key_from_bytes(mc.relin_key(msk).to_bytes())
        with pytest.raises(rnsfhe.ContextMismatchError):
            mc.relin_key_from_bytes(barrett.relin_key(bsk).to_bytes())
        if scheme == "bgv":
            with pytest.raises(rnsfhe.ContextMismatchError):
                barrett.ciphertext_from_bytes(mc.encrypt(a, mpk).to_bytes())


def test_reduction_keyword_refusals_and_power_of_two():
    for cls in (rnsfhe.BfvParameters, rnsfhe.BgvParameters):
        with pytest.raises(rnsfhe.ParameterError, match="reduction"):
            cls(cyclotomic_index=255, plain_modulus=2, moduli_bits=[50, 50], special_moduli_bits=[55],
                security="insecure", reduction="karatsuba")
        default = cls(cyclotomic_index=255, plain_modulus=2, moduli_bits=[50, 50],
                      special_moduli_bits=[55], security="insecure")
        assert default.reduction == "optimized"
        # X^n + 1 has no reduction modulo Phi_m: the keyword is ignored, as in Rust.
        p2 = cls(degree=1024, plain_modulus=65537, moduli_bits=[40, 40], special_moduli_bits=[45],
                 security="insecure", reduction="montgomery")
        assert p2.reduction is None and "reduction" not in repr(p2)
        assert p2 == cls(degree=1024, plain_modulus=65537, moduli_bits=[40, 40],
                         special_moduli_bits=[45], security="insecure")


def test_fv_full_montgomery(rng):
    """montgomery="full" (Bajard et al. (SAC 2017) sections 4 and 4.1: ciphertexts c M, keys with M^2) decrypts to the
    slot model as the mixed strategy does; its bytes say so and a mixed context refuses them."""
    kw = dict(cyclotomic_index=255, plain_modulus=2, moduli_bits=[50, 50, 50], special_moduli_bits=[60],
              security="insecure", reduction="montgomery")
    ctxs = {}
    for mode in ("mixed", "full"):
        p = rnsfhe.BfvParameters(montgomery=mode, **kw)
        assert p.montgomery == mode and (('montgomery="full"' in repr(p)) == (mode == "full"))
        q = pickle.loads(pickle.dumps(p))
        assert q == p and q.montgomery == mode
        ctx = rnsfhe.BfvContext(p, seed=SEED)
        sk, pk = ctx.keygen()
        ctx.relin_key(sk)
        ctx.galois_keys(sk, rotations=[(0, 1)])
        ctxs[mode] = (ctx, sk, pk)
    assert rnsfhe.BfvParameters(**kw).montgomery == "mixed"
    model = Slots(ctxs["full"][0])
    a, b = random_slots(ctxs["full"][0], rng), random_slots(ctxs["full"][0], rng)
    prod = np.array([model.mul(u, v) for u, v in zip(a, b)], dtype=np.int64)
    for mode, (ctx, sk, pk) in ctxs.items():
        x, y = ctx.encrypt(a, pk), ctx.encrypt(b, sk)
        assert np.array_equal(ctx.decrypt(x + y, sk), (a + b) % 2), mode
        assert np.array_equal(ctx.decrypt(x * y, sk), prod), mode
        rot = ctx.rotate_dimension(x, 0, 1)
        assert np.array_equal(ctx.decrypt(rot, sk), model.galois(a, model.rotation(0, 1))), mode
        z = pickle.loads(pickle.dumps(x * y))
        assert np.array_equal(ctx.decrypt(z, sk), prod), mode
    (fc, fsk, fpk), (mc, _, _) = ctxs["full"], ctxs["mixed"]
    with pytest.raises(rnsfhe.ContextMismatchError):
        mc.ciphertext_from_bytes(fc.encrypt(a, fpk).to_bytes())
    with pytest.raises(rnsfhe.ParameterError, match="montgomery"):
        rnsfhe.BfvParameters(montgomery="half", **kw)
    with pytest.raises(rnsfhe.ParameterError, match="Montgomery"):
        rnsfhe.BfvParameters(montgomery="full", **{**kw, "reduction": "optimized"})
