"""Type stubs of the rnsfhe extension module (the Rust core through PyO3)."""

from typing import Any, Callable, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
FORMAT_VERSION: int

def _restore(kind: str, params: Buffer, data: Buffer) -> object: ...
LOGISTIC_LEVELS_PER_ITERATION: int
LOGISTIC_WEIGHT_BOUND: float

def logistic_rotation_steps(samples: int, features: int) -> list[int]:
    """The rotation steps `CkksContext.train_logistic` needs for `samples` x `features`."""
def logistic_train_plain(z: Sequence[Sequence[float]], iterations: int) -> list[float]:
    """The same training in floating point (the reference the encrypted run follows): the weights."""

Buffer = Union[bytes, bytearray, memoryview]
IntValues = Union[Sequence[int], npt.NDArray[np.integer]]
# Over a general Phi_m (cyclotomic_index=m): l slots of GF(t^d) as an (l, d) array ((l,) also when d = 1).
SlotValues = Union[Sequence[Sequence[int]], npt.NDArray[np.integer]]
RealValues = Union[Sequence[float], Sequence[complex], npt.NDArray[np.number]]
Security = Union[Literal[128, 192, 256], Literal["insecure"], None]
DecryptionMethod = Literal[
    "gamma", "alg1", "power_of_two_gamma", "lemma3", "floating_point", "flp", "hps"
]
# How a general Phi_m ring reduces products (paper 001): Alg. 1, Alg. 2 or Montgomery (Algs. 3-4).
Reduction = Literal["barrett", "optimized", "montgomery"]
ModulusSwitching = Literal["auto", "manual"]
# The default moduli: the scheme's own, or every prime below 2^50 (for CPUs with AVX-512 IFMA).
ModuliLayout = Literal["default", "narrow"]

class SecretKey:
    """A secret key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self, *, allow_secret: bool = False) -> bytes:
        """The secret key in the rnsfhe binary format. Refused unless `allow_secret=True`:
        whoever holds the bytes can decrypt every ciphertext of this key pair.
        """
    @staticmethod
    def from_bytes(context: "Union[BfvContext, BgvContext, CkksContext]", data: Buffer) -> SecretKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class PublicKey:
    """A public key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""
    @staticmethod
    def from_bytes(context: "Union[BfvContext, BgvContext, CkksContext]", data: Buffer) -> PublicKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class RelinKey:
    """A relinearisation key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""
    @staticmethod
    def from_bytes(context: "Union[BfvContext, BgvContext, CkksContext]", data: Buffer) -> RelinKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class GaloisKeys:
    """A Galois keys (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    @staticmethod
    def from_bytes(context: "Union[BfvContext, BgvContext, CkksContext]", data: Buffer) -> GaloisKeys:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """
    @property
    def elements(self) -> list[int]:
        """The Galois elements g (automorphisms X -> X^g) these keys cover."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""

class BfvParameters:
    """BFV parameters: ring degree n, plaintext modulus t, ciphertext moduli q_i (chosen for the security
    level unless given), the multiplication (HPS or BEHZ) and default decryption methods. For a general
    Phi_m (`cyclotomic_index=m`), `reduction="barrett"` (Bajard et al. (SAC 2017) Alg. 1), `"optimized"` (Alg. 2,
    default; same results) or `"montgomery"` (the mixed strategy of section 4.4: relinearisation
    keys carry M; with `montgomery="full"` the full representation of sections 4 and 4.1:
    ciphertexts c M, keys with M^2, a smaller depth); ignored for X^n + 1, as in Rust.
    `layout="narrow"` puts every default prime below 2^50 (same log q): about 1.5x faster on CPUs
    with AVX-512 IFMA, slower on AVX2-only CPUs (docs/tutorials/parameters.md, "BFV").
    """
    def __init__(
        self,
        degree: int = 8192,
        plain_modulus: int = 65537,
        *,
        moduli: Optional[Sequence[int]] = None,
        moduli_bits: Optional[Sequence[int]] = None,
        special_moduli: Optional[Sequence[int]] = None,
        special_moduli_bits: Optional[Sequence[int]] = None,
        multiplication: Literal["hps", "behz"] = "hps",
        decryption: Optional[DecryptionMethod] = None,
        m_tilde: Optional[int] = 65536,
        sigma: Optional[float] = None,
        hamming_weight: Optional[int] = None,
        digit_primes: Optional[int] = None,
        security: Security = None,
        cyclotomic_index: Optional[int] = None,
        reduction: Optional[Reduction] = None,
        montgomery: Optional[Literal["mixed", "full"]] = None,
        layout: Optional[ModuliLayout] = None,
    ) -> None: ...
    @staticmethod
    def paper000(degree: int, k: int, bits: int, plain_modulus: int) -> BfvParameters:
        """Bajard et al. (SAC 2016)'s setting: n, k moduli of `bits` bits, t; BEHZ and Alg. 1 (not security-checked)."""
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> BfvParameters:
        """Parameters from `to_bytes` output (validated again, security included, unless a live
        context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    def to_bytes(self) -> bytes:
        """The parameter set in the rnsfhe binary format (CKKS: then its bootstrapping preset)."""
    @property
    def degree(self) -> int: ...
    @property
    def plain_modulus(self) -> int: ...
    @property
    def cyclotomic_index(self) -> int:
        """The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1)."""
    @property
    def reduction(self) -> Optional[Reduction]:
        """How products are reduced modulo Phi_m: "barrett", "optimized" or "montgomery"
        (keyword `reduction=`, Bajard et al. (SAC 2017) sections 3-4); `None` for X^n + 1, where the
        keyword is ignored as in Rust.
        """
    @property
    def moduli(self) -> list[int]:
        """The ciphertext moduli: q_0, q_1, ... (level l has q_0..q_l); for HPR the k primes of
        p (q = p^d).
        """
    @property
    def special_moduli(self) -> list[int]: ...
    @property
    def log_q(self) -> float:
        """log2 of q = prod q_i (at the top level for BGV)."""
    @property
    def slots(self) -> int:
        """Batching slots: n when t is a prime = 1 mod 2n, l = phi(m) / d for a general
        Phi_m, else 0.
        """
    @property
    def multiplication(self) -> str: ...
    @property
    def decryption(self) -> str: ...
    @property
    def montgomery(self) -> Optional[Literal["mixed", "full"]]:
        """With `reduction="montgomery"`: "mixed" (section 4.4) or "full" (ciphertexts c M,
        sections 4 and 4.1); `None` otherwise.
        """
    @property
    def security(self) -> str:
        """128, 192, 256 or "insecure"."""

class BfvPlaintext:
    """A BFV plaintext (an element of R_t)."""
    __array_ufunc__: None  # numpy defers its operators to this class
    @staticmethod
    def from_bytes(context: BfvContext, data: Buffer) -> BfvPlaintext:
        """A plaintext from `to_bytes` output, for `context`'s parameter set."""
    def coefficients(self) -> npt.NDArray[np.int64]:
        """The polynomial's coefficients in [0, t)."""
    def to_bytes(self) -> bytes: ...

BfvOperand = Union["BfvCiphertext", BfvPlaintext, int, np.integer, IntValues]

class BfvCiphertext:
    """A BFV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer sequences (slot arrays for a general Phi_m), unary `-`, and `**` for small powers (products use the registered relinearisation key)."""
    __array_ufunc__: None  # numpy defers its operators to this class
    @property
    def key_id(self) -> Optional[str]:
        """The identity of the key pair it is encrypted under (16 hex digits; None for a
        trivial ciphertext). Operators find the evaluation keys registered for this key pair.
        """
    @staticmethod
    def from_bytes(context: BfvContext, data: Buffer) -> BfvCiphertext:
        """A ciphertext from `to_bytes` output, for `context`'s parameter set."""
    @property
    def size(self) -> int:
        """Number of polynomials (2, or 3 after `multiply_no_relin`)."""
    @property
    def context(self) -> BfvContext:
        """A context of this ciphertext's parameter set."""
    def to_bytes(self) -> bytes:
        """The ciphertext in the rnsfhe binary format."""
    def __add__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __radd__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __sub__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __rsub__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __mul__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __rmul__(self, other: BfvOperand) -> BfvCiphertext: ...
    def __neg__(self) -> BfvCiphertext: ...
    def __pow__(self, k: int, modulo: None = None) -> BfvCiphertext: ...
    def rotate_rows(self, step: int) -> BfvCiphertext:
        """`ctx.rotate_rows(self, step)` with the registered Galois keys."""
    def rotate_columns(self) -> BfvCiphertext:
        """`ctx.rotate_columns(self)` with the registered Galois keys."""
    def sum_slots(self) -> BfvCiphertext:
        """`ctx.sum_slots(self)` with the registered Galois keys."""
    def rotate_dimension(self, dimension: int, steps: int) -> BfvCiphertext:
        """`ctx.rotate_dimension(self, dimension, steps)` with the registered Galois keys."""
    def frobenius(self, power: int = 1) -> BfvCiphertext:
        """`ctx.frobenius(self, power)` with the registered Galois keys."""

class BfvContext:
    """A BFV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
    parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
    reproducible (tests only).
    """
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> BfvContext:
        """The context of a parameter set's bytes (validated again, security included, unless
        a live context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    @property
    def fingerprint(self) -> str:
        """The parameter set's fingerprint (16 hex digits): every plaintext, ciphertext and key
        of these parameters carries it in its bytes, and loading refuses another.
        """
    def to_bytes(self) -> bytes:
        """The context's parameter set as bytes (`from_bytes` rebuilds the context)."""
    def __init__(self, params: Optional[BfvParameters] = None, *, seed: Optional[bytes] = None) -> None: ...
    @property
    def params(self) -> BfvParameters: ...
    @property
    def security(self) -> str:
        """The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a
        context made with `seed=` (reproducible keys and encryptions: tests only).
        """
    @property
    def degree(self) -> int: ...
    @property
    def plain_modulus(self) -> int: ...
    @property
    def slots(self) -> int:
        """Number of batching slots: n for X^n + 1 with a prime t = 1 mod 2n, l for a general
        Phi_m (0 when t does not allow batching).
        """
    @property
    def cyclotomic_index(self) -> int:
        """The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1)."""
    @property
    def slot_degree(self) -> int:
        """d, the degree of each slot's field GF(t^d) (general Phi_m; 1 for X^n + 1)."""
    @property
    def slot_polynomial(self) -> list[int]:
        """G(Y), the monic irreducible of degree d (coefficients from Y^0 up) with GF(t^d) =
        GF(t)[Y]/(G) the field of every slot (general Phi_m): slot values are coefficients
        of polynomials in Y reduced mod G.
        """
    @property
    def hypercube(self) -> list[Tuple[int, int, bool]]:
        """The hypercube of Z_m^* / <t> (general Phi_m): per dimension (generator g_i, order
        o_i, native), slot indices in mixed radix with dimension 0 most significant.
        """
    @property
    def worst_case_depth(self) -> int:
        """The multiplicative depth that bound (20) of Bajard et al. (SAC 2016) guarantees (a worst case)."""
    def keygen(self) -> Tuple[SecretKey, PublicKey]:
        """A fresh secret key and its public key."""
    def relin_key(self, sk: SecretKey) -> RelinKey:
        """The relinearisation key of `sk`; also registered for `*` and `**` on ciphertexts."""
    def galois_keys(
        self,
        sk: SecretKey,
        steps: Optional[Sequence[int]] = None,
        *,
        columns: bool = True,
        for_sum: bool = False,
        rotations: Optional[Sequence[Tuple[int, int]]] = None,
        frobenius: Optional[Sequence[int]] = None,
    ) -> GaloisKeys:
        """Galois keys, also registered for the ciphertext methods. For X^n + 1: row
        rotations by `steps` (default +1 and -1, or none with `for_sum`) and the column
        swap if `columns`, plus with `for_sum=True` the keys `sum_slots` needs (the union
        with `steps`). For a general Phi_m: by default +1 and -1
        along every hypercube dimension and Frobenius; or exactly the `rotations` ((dimension,
        k) pairs) and `frobenius` powers asked for.
        """
    def register_keys(
        self, *, relin_key: Optional[RelinKey] = None, galois_keys: Optional[GaloisKeys] = None
    ) -> None:
        """Registers loaded evaluation keys for the operators and ciphertext methods."""
    def encode(
        self, values: Union[IntValues, SlotValues], *, coefficients: bool = False
    ) -> BfvPlaintext:
        """Encodes into the slots: integers (|v| < t, negative values mod t) for X^n + 1, an
        (l, d) array of GF(t^d) slots for a general Phi_m; with `coefficients=True`,
        integers into the polynomial's coefficients (any t).
        """
    def decode(
        self, pt: BfvPlaintext, *, signed: bool = False, coefficients: bool = False
    ) -> npt.NDArray[np.int64]:
        """The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or,
        with `signed=True`, centred in (-t/2, t/2]; shape (l, d) for a general Phi_m.
        """
    def encrypt(
        self, x: Union[BfvPlaintext, IntValues, SlotValues], key: Union[PublicKey, SecretKey]
    ) -> BfvCiphertext:
        """Encrypts a plaintext or values (as `encode` takes them): with a public key, or with a
        secret key (symmetric; stored at half size by `to_bytes` where the scheme seeds it).
        """
    def decrypt_plaintext(
        self,
        ct: BfvCiphertext,
        sk: SecretKey,
        *,
        method: Optional[DecryptionMethod] = None,
        check_noise: bool = True,
    ) -> BfvPlaintext:
        """Decrypts to a plaintext, by the parameters' default method or `method` ("gamma",
        "power_of_two_gamma", "floating_point", "hps"). With `check_noise` (default) a ciphertext
        whose noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to
        wrong values.
        """
    def decrypt(
        self,
        ct: BfvCiphertext,
        sk: SecretKey,
        *,
        method: Optional[DecryptionMethod] = None,
        signed: bool = False,
        coefficients: bool = False,
        check_noise: bool = True,
    ) -> npt.NDArray[np.int64]:
        """Decrypts and decodes the slots (see `decode`); `method` and `check_noise` as in
        `decrypt_plaintext`.
        """
    def noise_budget(self, ct: BfvCiphertext, sk: SecretKey) -> int:
        """Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
        measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
        loaded from bytes carries no bound and is judged by the measurement alone).
        """
    def add(self, a: BfvCiphertext, b: BfvCiphertext) -> BfvCiphertext: ...
    def sub(self, a: BfvCiphertext, b: BfvCiphertext) -> BfvCiphertext: ...
    def negate(self, a: BfvCiphertext) -> BfvCiphertext: ...
    def add_plain(self, a: BfvCiphertext, m: Union[BfvPlaintext, IntValues]) -> BfvCiphertext:
        """a + m for a plaintext or values m."""
    def sub_plain(self, a: BfvCiphertext, m: Union[BfvPlaintext, IntValues]) -> BfvCiphertext:
        """a - m for a plaintext or values m."""
    def mul_plain(self, a: BfvCiphertext, m: Union[BfvPlaintext, IntValues]) -> BfvCiphertext:
        """a * m (slot-wise) for a plaintext or values m."""
    def mul_scalar(self, a: BfvCiphertext, c: int) -> BfvCiphertext:
        """a * c for an integer c."""
    def multiply(self, a: BfvCiphertext, b: BfvCiphertext, rlk: Optional[RelinKey] = None) -> BfvCiphertext:
        """a * b, relinearised with `rlk` (default: the registered key)."""
    def multiply_no_relin(self, a: BfvCiphertext, b: BfvCiphertext) -> BfvCiphertext:
        """a * b without relinearisation (3 parts; HPR: Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16))."""
    def square(self, a: BfvCiphertext, rlk: Optional[RelinKey] = None) -> BfvCiphertext:
        """a^2, relinearised."""
    def relinearize(self, a: BfvCiphertext, rlk: Optional[RelinKey] = None) -> BfvCiphertext:
        """A 3-part ciphertext back to 2 parts."""
    def rotate_rows(self, a: BfvCiphertext, step: int, keys: Optional[GaloisKeys] = None) -> BfvCiphertext:
        """Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative)."""
    def rotate_many(
        self, a: BfvCiphertext, steps: Sequence[int], keys: Optional[GaloisKeys] = None
    ) -> list[BfvCiphertext]:
        """The row rotations of `a` by every step (a list, one ciphertext per step; step 0 gives
        a copy), from one decomposition of the ciphertext (hoisting): each equals
        `rotate_rows(a, step)`.
        """
    def sum_rotations(
        self,
        a: BfvCiphertext,
        steps: Sequence[int],
        weights: Optional[Sequence[Union[int, BfvPlaintext, IntValues]]] = None,
        keys: Optional[GaloisKeys] = None,
    ) -> BfvCiphertext:
        """sum_i weights[i] * rotate_rows(a, steps[i]) with one decomposition and one ModDown
        for the whole sum (double hoisting). `weights`: None (all 1), or one per step:
        integers (taken mod t), or plaintexts or slot values (slot-wise products).
        """
    def rotate_columns(self, a: BfvCiphertext, keys: Optional[GaloisKeys] = None) -> BfvCiphertext:
        """Swaps the two rows of the slot matrix."""
    def sum_slots(self, a: BfvCiphertext, keys: Optional[GaloisKeys] = None) -> BfvCiphertext:
        """Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`)."""
    def rotate_dimension(
        self, a: BfvCiphertext, dimension: int, steps: int, keys: Optional[GaloisKeys] = None
    ) -> BfvCiphertext:
        """Rotates the slots of a general Phi_m along hypercube dimension `dimension` by
        `steps`: the value of slot e moves to e + steps (on a non-native dimension the
        values that wrap around come back raised to a power of t). Uses the key of g^steps
        if there is one, else repeated steps of +-1.
        """
    def frobenius(self, a: BfvCiphertext, power: int = 1, keys: Optional[GaloisKeys] = None) -> BfvCiphertext:
        """Frobenius X -> X^(t^power): every slot raised to the power t^power (general Phi_m)."""
    def ciphertext_from_bytes(self, data: Buffer) -> BfvCiphertext:
        """A ciphertext from the ciphertext class's `to_bytes` output of this parameter set."""
    def plaintext_from_bytes(self, data: Buffer) -> BfvPlaintext:
        """A plaintext from the plaintext class's `to_bytes` output of this parameter set."""
    def secret_key_from_bytes(self, data: Buffer) -> SecretKey:
        """A secret key from its `to_bytes(allow_secret=True)` output."""
    def public_key_from_bytes(self, data: Buffer) -> PublicKey: ...
    def relin_key_from_bytes(self, data: Buffer) -> RelinKey: ...
    def galois_keys_from_bytes(self, data: Buffer) -> GaloisKeys: ...

class BgvParameters:
    """BGV parameters: ring degree n, plaintext modulus t, the modulus chain q_0..q_L (each prime = 1 mod
    2n and = 1 mod t; chosen for the security level unless given) and special moduli. For a general
    Phi_m (`cyclotomic_index=m`), `reduction="barrett"` (Bajard et al. (SAC 2017) Alg. 1), `"optimized"` (Alg. 2,
    default; same results) or `"montgomery"` (section 4.2: ciphertexts c M, keys with M^2);
    ignored for X^n + 1, as in Rust. `modulus_switching="auto"` (default) lets the operators
    (`*`, `**`, `+`, `-` and the context's methods) switch the modulus before products as the
    chain needs and align the levels of their operands; `"manual"` leaves it to `mod_switch`.
    """
    def __init__(
        self,
        degree: int = 8192,
        plain_modulus: int = 65537,
        *,
        moduli: Optional[Sequence[int]] = None,
        moduli_bits: Optional[Sequence[int]] = None,
        special_moduli: Optional[Sequence[int]] = None,
        special_moduli_bits: Optional[Sequence[int]] = None,
        sigma: Optional[float] = None,
        hamming_weight: Optional[int] = None,
        digit_primes: Optional[int] = None,
        security: Security = None,
        cyclotomic_index: Optional[int] = None,
        reduction: Optional[Reduction] = None,
        modulus_switching: Optional[ModulusSwitching] = None,
        layout: Optional[ModuliLayout] = None,
    ) -> None: ...
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> BgvParameters:
        """Parameters from `to_bytes` output (validated again, security included, unless a live
        context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    def to_bytes(self) -> bytes:
        """The parameter set in the rnsfhe binary format (CKKS: then its bootstrapping preset)."""
    @property
    def degree(self) -> int: ...
    @property
    def plain_modulus(self) -> int: ...
    @property
    def cyclotomic_index(self) -> int:
        """The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1)."""
    @property
    def reduction(self) -> Optional[Reduction]:
        """How products are reduced modulo Phi_m: "barrett", "optimized" or "montgomery"
        (keyword `reduction=`, Bajard et al. (SAC 2017) sections 3-4); `None` for X^n + 1, where the
        keyword is ignored as in Rust.
        """
    @property
    def moduli(self) -> list[int]:
        """The ciphertext moduli: q_0, q_1, ... (level l has q_0..q_l); for HPR the k primes of
        p (q = p^d).
        """
    @property
    def special_moduli(self) -> list[int]: ...
    @property
    def max_level(self) -> int:
        """The top level L (fresh ciphertexts; each modulus switch goes one down)."""
    @property
    def modulus_switching(self) -> ModulusSwitching:
        """Who switches the modulus: "auto" (the operators, before products; default) or
        "manual" (`mod_switch` by hand; operands at different levels refused).
        """
    @property
    def log_q(self) -> float:
        """log2 of q = prod q_i (at the top level for BGV)."""
    @property
    def slots(self) -> int:
        """Batching slots: n when t is a prime = 1 mod 2n, l = phi(m) / d for a general
        Phi_m, else 0.
        """
    @property
    def security(self) -> str:
        """128, 192, 256 or "insecure"."""

class BgvPlaintext:
    """A BGV plaintext (an element of R_t)."""
    __array_ufunc__: None  # numpy defers its operators to this class
    @staticmethod
    def from_bytes(context: BgvContext, data: Buffer) -> BgvPlaintext:
        """A plaintext from `to_bytes` output, for `context`'s parameter set."""
    def coefficients(self) -> npt.NDArray[np.int64]:
        """The polynomial's coefficients in [0, t)."""
    def to_bytes(self) -> bytes: ...

BgvOperand = Union["BgvCiphertext", BgvPlaintext, int, np.integer, IntValues]

class BgvCiphertext:
    """A BGV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer sequences (slot arrays for a general Phi_m), unary `-`, and `**` for small powers (products use the registered relinearisation key)."""
    __array_ufunc__: None  # numpy defers its operators to this class
    @property
    def key_id(self) -> Optional[str]:
        """The identity of the key pair it is encrypted under (16 hex digits; None for a
        trivial ciphertext). Operators find the evaluation keys registered for this key pair.
        """
    @staticmethod
    def from_bytes(context: BgvContext, data: Buffer) -> BgvCiphertext:
        """A ciphertext from `to_bytes` output, for `context`'s parameter set."""
    @property
    def size(self) -> int:
        """Number of polynomials (2, or 3 after `multiply_no_relin`)."""
    @property
    def level(self) -> int:
        """The level l (moduli q_0..q_l); fresh ciphertexts are at the top level."""
    @property
    def context(self) -> BgvContext:
        """A context of this ciphertext's parameter set."""
    def to_bytes(self) -> bytes:
        """The ciphertext in the rnsfhe binary format."""
    def mod_switch(self) -> BgvCiphertext:
        """`ctx.mod_switch(self)`: one level down, the same message."""
    def __add__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __radd__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __sub__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __rsub__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __mul__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __rmul__(self, other: BgvOperand) -> BgvCiphertext: ...
    def __neg__(self) -> BgvCiphertext: ...
    def __pow__(self, k: int, modulo: None = None) -> BgvCiphertext: ...
    def rotate_rows(self, step: int) -> BgvCiphertext:
        """`ctx.rotate_rows(self, step)` with the registered Galois keys."""
    def rotate_columns(self) -> BgvCiphertext:
        """`ctx.rotate_columns(self)` with the registered Galois keys."""
    def sum_slots(self) -> BgvCiphertext:
        """`ctx.sum_slots(self)` with the registered Galois keys."""
    def rotate_dimension(self, dimension: int, steps: int) -> BgvCiphertext:
        """`ctx.rotate_dimension(self, dimension, steps)` with the registered Galois keys."""
    def frobenius(self, power: int = 1) -> BgvCiphertext:
        """`ctx.frobenius(self, power)` with the registered Galois keys."""

class BgvContext:
    """A BGV context: makes keys, encodes, encrypts, decrypts and evaluates. Contexts with equal
    parameters are interchangeable. `seed` (32 bytes) makes key generation and encryption
    reproducible (tests only). With the parameters' default `modulus_switching="auto"` the
    products (`multiply`, `square`, `*`, `**`) switch the modulus as the chain needs and sums and
    products align the levels of their operands; with `"manual"`, `mod_switch` does it by hand.
    """
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> BgvContext:
        """The context of a parameter set's bytes (validated again, security included, unless
        a live context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    @property
    def fingerprint(self) -> str:
        """The parameter set's fingerprint (16 hex digits): every plaintext, ciphertext and key
        of these parameters carries it in its bytes, and loading refuses another.
        """
    def to_bytes(self) -> bytes:
        """The context's parameter set as bytes (`from_bytes` rebuilds the context)."""
    def __init__(self, params: Optional[BgvParameters] = None, *, seed: Optional[bytes] = None) -> None: ...
    @property
    def params(self) -> BgvParameters: ...
    @property
    def security(self) -> str:
        """The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a
        context made with `seed=` (reproducible keys and encryptions: tests only).
        """
    @property
    def degree(self) -> int: ...
    @property
    def plain_modulus(self) -> int: ...
    @property
    def slots(self) -> int:
        """Number of batching slots: n for X^n + 1 with a prime t = 1 mod 2n, l for a general
        Phi_m (0 when t does not allow batching).
        """
    @property
    def cyclotomic_index(self) -> int:
        """The cyclotomic index m of the ring Z[X]/(Phi_m) (2n for X^n + 1)."""
    @property
    def slot_degree(self) -> int:
        """d, the degree of each slot's field GF(t^d) (general Phi_m; 1 for X^n + 1)."""
    @property
    def slot_polynomial(self) -> list[int]:
        """G(Y), the monic irreducible of degree d (coefficients from Y^0 up) with GF(t^d) =
        GF(t)[Y]/(G) the field of every slot (general Phi_m): slot values are coefficients
        of polynomials in Y reduced mod G.
        """
    @property
    def hypercube(self) -> list[Tuple[int, int, bool]]:
        """The hypercube of Z_m^* / <t> (general Phi_m): per dimension (generator g_i, order
        o_i, native), slot indices in mixed radix with dimension 0 most significant.
        """
    @property
    def max_level(self) -> int:
        """The top level L of fresh ciphertexts."""
    def keygen(self) -> Tuple[SecretKey, PublicKey]:
        """A fresh secret key and its public key."""
    def relin_key(self, sk: SecretKey) -> RelinKey:
        """The relinearisation key of `sk`; also registered for `*` and `**` on ciphertexts."""
    def galois_keys(
        self,
        sk: SecretKey,
        steps: Optional[Sequence[int]] = None,
        *,
        columns: bool = True,
        for_sum: bool = False,
        rotations: Optional[Sequence[Tuple[int, int]]] = None,
        frobenius: Optional[Sequence[int]] = None,
    ) -> GaloisKeys:
        """Galois keys, also registered for the ciphertext methods. For X^n + 1: row
        rotations by `steps` (default +1 and -1, or none with `for_sum`) and the column
        swap if `columns`, plus with `for_sum=True` the keys `sum_slots` needs (the union
        with `steps`). For a general Phi_m: by default +1 and -1
        along every hypercube dimension and Frobenius; or exactly the `rotations` ((dimension,
        k) pairs) and `frobenius` powers asked for.
        """
    def register_keys(
        self, *, relin_key: Optional[RelinKey] = None, galois_keys: Optional[GaloisKeys] = None
    ) -> None:
        """Registers loaded evaluation keys for the operators and ciphertext methods."""
    def encode(
        self, values: Union[IntValues, SlotValues], *, coefficients: bool = False
    ) -> BgvPlaintext:
        """Encodes into the slots: integers (|v| < t, negative values mod t) for X^n + 1, an
        (l, d) array of GF(t^d) slots for a general Phi_m; with `coefficients=True`,
        integers into the polynomial's coefficients (any t).
        """
    def decode(
        self, pt: BgvPlaintext, *, signed: bool = False, coefficients: bool = False
    ) -> npt.NDArray[np.int64]:
        """The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or,
        with `signed=True`, centred in (-t/2, t/2]; shape (l, d) for a general Phi_m.
        """
    def encrypt(
        self, x: Union[BgvPlaintext, IntValues, SlotValues], key: Union[PublicKey, SecretKey]
    ) -> BgvCiphertext:
        """Encrypts a plaintext or values (as `encode` takes them): with a public key, or with a
        secret key (symmetric; stored at half size by `to_bytes` where the scheme seeds it).
        """
    def decrypt_plaintext(self, ct: BgvCiphertext, sk: SecretKey) -> BgvPlaintext:
        """Decrypts to a plaintext: [[c(s)]_q]_t. A ciphertext whose noise may have wrapped past q/2
        raises `NoiseBudgetExhaustedError` instead of decrypting to wrong values.
        """
    def decrypt(
        self, ct: BgvCiphertext, sk: SecretKey, *, signed: bool = False, coefficients: bool = False
    ) -> npt.NDArray[np.int64]:
        """Decrypts and decodes the slots (see `decode`)."""
    def noise_budget(self, ct: BgvCiphertext, sk: SecretKey) -> int:
        """Remaining noise budget in bits. 0 when the ciphertext may no longer decrypt correctly: the
        measured noise or the noise bound the ciphertext carries reached the limit (a ciphertext
        loaded from bytes carries no bound and is judged by the measurement alone).
        """
    def mod_switch(self, a: BgvCiphertext) -> BgvCiphertext:
        """Modulus switching one level down (Bajard et al. (SAC 2017) Lemma 3): the same message, the noise divided
        by the dropped prime. Raises `LevelMismatchError` at level 0. Available in both modes
        (`modulus_switching="auto"` switches before products by itself).
        """
    def mod_switch_to_level(self, a: BgvCiphertext, level: int) -> BgvCiphertext:
        """Modulus switching down to `level`."""
    def add(self, a: BgvCiphertext, b: BgvCiphertext) -> BgvCiphertext: ...
    def sub(self, a: BgvCiphertext, b: BgvCiphertext) -> BgvCiphertext: ...
    def negate(self, a: BgvCiphertext) -> BgvCiphertext: ...
    def add_plain(self, a: BgvCiphertext, m: Union[BgvPlaintext, IntValues]) -> BgvCiphertext:
        """a + m for a plaintext or values m."""
    def sub_plain(self, a: BgvCiphertext, m: Union[BgvPlaintext, IntValues]) -> BgvCiphertext:
        """a - m for a plaintext or values m."""
    def mul_plain(self, a: BgvCiphertext, m: Union[BgvPlaintext, IntValues]) -> BgvCiphertext:
        """a * m (slot-wise) for a plaintext or values m."""
    def mul_scalar(self, a: BgvCiphertext, c: int) -> BgvCiphertext:
        """a * c for an integer c."""
    def multiply(self, a: BgvCiphertext, b: BgvCiphertext, rlk: Optional[RelinKey] = None) -> BgvCiphertext:
        """a * b, relinearised with `rlk` (default: the registered key)."""
    def multiply_no_relin(self, a: BgvCiphertext, b: BgvCiphertext) -> BgvCiphertext:
        """a * b without relinearisation (3 parts; HPR: Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16))."""
    def square(self, a: BgvCiphertext, rlk: Optional[RelinKey] = None) -> BgvCiphertext:
        """a^2, relinearised."""
    def relinearize(self, a: BgvCiphertext, rlk: Optional[RelinKey] = None) -> BgvCiphertext:
        """A 3-part ciphertext back to 2 parts."""
    def rotate_rows(self, a: BgvCiphertext, step: int, keys: Optional[GaloisKeys] = None) -> BgvCiphertext:
        """Rotates both rows of the 2 x n/2 slot matrix left by `step` (right when negative)."""
    def rotate_many(
        self, a: BgvCiphertext, steps: Sequence[int], keys: Optional[GaloisKeys] = None
    ) -> list[BgvCiphertext]:
        """The row rotations of `a` by every step (a list, one ciphertext per step; step 0 gives
        a copy), from one decomposition of the ciphertext (hoisting): each equals
        `rotate_rows(a, step)`.
        """
    def sum_rotations(
        self,
        a: BgvCiphertext,
        steps: Sequence[int],
        weights: Optional[Sequence[Union[int, BgvPlaintext, IntValues]]] = None,
        keys: Optional[GaloisKeys] = None,
    ) -> BgvCiphertext:
        """sum_i weights[i] * rotate_rows(a, steps[i]) with one decomposition and one ModDown
        for the whole sum (double hoisting). `weights`: None (all 1), or one per step:
        integers (taken mod t), or plaintexts or slot values (slot-wise products).
        """
    def rotate_columns(self, a: BgvCiphertext, keys: Optional[GaloisKeys] = None) -> BgvCiphertext:
        """Swaps the two rows of the slot matrix."""
    def sum_slots(self, a: BgvCiphertext, keys: Optional[GaloisKeys] = None) -> BgvCiphertext:
        """Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`)."""
    def rotate_dimension(
        self, a: BgvCiphertext, dimension: int, steps: int, keys: Optional[GaloisKeys] = None
    ) -> BgvCiphertext:
        """Rotates the slots of a general Phi_m along hypercube dimension `dimension` by
        `steps`: the value of slot e moves to e + steps (on a non-native dimension the
        values that wrap around come back raised to a power of t). Uses the key of g^steps
        if there is one, else repeated steps of +-1.
        """
    def frobenius(self, a: BgvCiphertext, power: int = 1, keys: Optional[GaloisKeys] = None) -> BgvCiphertext:
        """Frobenius X -> X^(t^power): every slot raised to the power t^power (general Phi_m)."""
    def ciphertext_from_bytes(self, data: Buffer) -> BgvCiphertext:
        """A ciphertext from the ciphertext class's `to_bytes` output of this parameter set."""
    def plaintext_from_bytes(self, data: Buffer) -> BgvPlaintext:
        """A plaintext from the plaintext class's `to_bytes` output of this parameter set."""
    def secret_key_from_bytes(self, data: Buffer) -> SecretKey:
        """A secret key from its `to_bytes(allow_secret=True)` output."""
    def public_key_from_bytes(self, data: Buffer) -> PublicKey: ...
    def relin_key_from_bytes(self, data: Buffer) -> RelinKey: ...
    def galois_keys_from_bytes(self, data: Buffer) -> GaloisKeys: ...

class BootstrappingKeys:
    """The Python class of bootstrapping keys."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits)."""
    @property
    def nbytes(self) -> int:
        """The size of `to_bytes()` (seeded keys, each at the level it is used at)."""
    @property
    def elements(self) -> list[int]:
        """The Galois elements g (X -> X^g) of the rotation keys: only those the bootstrap's stages use."""
    def to_bytes(self) -> bytes:
        """The keys in the rnsfhe binary format, after the preset they were made for (load them with
        `BootstrappingKeys.from_bytes` or `CkksContext.bootstrapping_keys_from_bytes`).
        """
    @staticmethod
    def from_bytes(context: CkksContext, data: Buffer) -> BootstrappingKeys:
        """The keys from `to_bytes` output, for `context`'s parameter set (not registered: see
        `CkksContext.register_bootstrapping_keys`).
        """

ProgressArg = Union[bool, None, Callable[[int, int], object]]

class CkksParameters:
    """CKKS parameters (Cheon et al. (SAC 2018)): ring degree N, L levels of `scale_bits`-bit primes close to
    2^scale_bits (the approximate basis), q_0 of `first_modulus_bits`, special primes for key switching
    (default, with `digit_primes` unset: 3 digits and as many special primes as a digit has primes,
    within the security bound; more digits where the bound needs it; the special primes have 49 bits
    where P stays 2^8 above the widest digit, else 60). `first_modulus_bits` defaults to 60;
    `layout="narrow"` makes q_0 and P 49 bits (every prime below 2^50, for AVX-512 IFMA CPUs).
    `chain_bits` gives the widths of q_0, q_1, ..., q_L instead (bottom first, each 20..=61: the
    chains of bootstrapping, whose top levels want wider primes), overriding `levels` and
    `first_modulus_bits`; `scale_level` is the level R whose scale is 2^scale_bits (default: the
    top level; the others follow, see `CkksContext.scale_at`).
    """
    @staticmethod
    def bootstrappable(
        slots: Optional[int] = None,
        residual_levels: Optional[int] = None,
        scale_bits: Optional[int] = None,
        *,
        security: Security = None,
        secret: Union[str, int, None] = None,
        logn: int = 16,
        meta_bts: Union[bool, int, None] = None,
    ) -> CkksParameters:
        """Bootstrappable parameters: the 128-bit preset at N = 2^16 (`logn=16`: 2^15
        slots, 10 residual levels of 40 bits, dense ternary secret with sparse-secret
        encapsulation), or, with `security="insecure"`, the small INSECURE presets at
        `logn` 11..13 for tests and notebooks (2 residual levels of 45 bits). `slots` (a power of
        two: sparse packing below N/2), `residual_levels` and `scale_bits` override the preset's;
        `secret` is "ternary" or a Hamming weight. `meta_bts` (True, or k in 1..=40): META-BTS, a
        second bootstrap of the first one's residual scaled by 2^k (Bae et al., CCS 2022), on its
        own preset at N = 2^16 (residual scale 2^53, 6 residual levels dense, 4 with
        `secret=192`, the one that reaches 40 bits); at the toy presets k = 20 and the chain's
        prime above the residual levels reserved. Checked by the security gate. The parameters
        carry the preset (in `to_bytes`, pickles, equality and repr), and so does a context of
        them: two presets of one chain make two contexts.
        """
    def __init__(
        self,
        degree: int = 16384,
        levels: int = 5,
        scale_bits: int = 40,
        *,
        first_modulus_bits: Optional[int] = None,
        special_moduli_bits: Optional[Sequence[int]] = None,
        sigma: Optional[float] = None,
        hamming_weight: Optional[int] = None,
        digit_primes: Optional[int] = None,
        security: Security = None,
        layout: Optional[ModuliLayout] = None,
        chain_bits: Optional[Sequence[int]] = None,
        scale_level: Optional[int] = None,
    ) -> None: ...
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> CkksParameters:
        """Parameters from `to_bytes` output (validated again, security included, unless a live
        context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    def to_bytes(self) -> bytes:
        """The parameter set in the rnsfhe binary format (CKKS: then its bootstrapping preset)."""
    @property
    def degree(self) -> int: ...
    @property
    def levels(self) -> int: ...
    @property
    def scale_bits(self) -> int: ...
    @property
    def scale(self) -> float:
        """The scale 2^scale_bits of the scale level (the top level by default)."""
    @property
    def moduli(self) -> list[int]:
        """The ciphertext moduli: q_0, q_1, ... (level l has q_0..q_l); for HPR the k primes of
        p (q = p^d).
        """
    @property
    def special_moduli(self) -> list[int]: ...
    @property
    def scale_level(self) -> int:
        """The level R whose scale is 2^scale_bits."""
    @property
    def chain_bits(self) -> list[int]:
        """The widths of q_0, q_1, ..., q_L (log2 q rounded)."""
    @property
    def eta(self) -> int:
        """The approximate basis' eta: |q_j / 2^bits_j - 1| < 2^-eta for every q_j, j >= 1, bits_j
        its width (`chain_bits`).
        """
    @property
    def log_qp(self) -> float:
        """log2 of Q P, the quantity the security bound limits."""
    @property
    def security(self) -> str:
        """128, 192, 256 or "insecure"."""

class CkksPlaintext:
    """A CKKS plaintext: an encoding of slots at a level and a scale."""
    __array_ufunc__: None  # numpy defers its operators to this class
    @staticmethod
    def from_bytes(context: CkksContext, data: Buffer) -> CkksPlaintext:
        """A plaintext from `to_bytes` output, for `context`'s parameter set."""
    @property
    def level(self) -> int: ...
    @property
    def scale(self) -> float: ...
    @property
    def slots(self) -> int: ...
    def to_bytes(self) -> bytes: ...

CkksOperand = Union["CkksCiphertext", CkksPlaintext, float, int, np.number, RealValues]

class CkksCiphertext:
    """A CKKS ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, real numbers (numpy scalars
    included) and sequences or arrays, on either side (`__array_ufunc__ = None` makes numpy defer).
    Every result is at level L minus the circuit's multiplicative depth and at that level's scale
    (`CkksContext.scale_at`, OpenFHE's FLEXIBLEAUTO): sums bring the higher operand down onto the
    lower one's level and scale, so operands of one level add without spending a level; products
    are relinearised (registered key) and rescaled; constants and vectors multiplied in are encoded
    so that the rescaled product lands on the chain's scale; unary `-`; `**` for small powers.
    """
    __array_ufunc__: None  # numpy defers its operators to this class
    @property
    def key_id(self) -> Optional[str]:
        """The identity of the key pair it is encrypted under (16 hex digits; None for a
        trivial ciphertext). Operators find the evaluation keys registered for this key pair.
        """
    @staticmethod
    def from_bytes(context: CkksContext, data: Buffer) -> CkksCiphertext:
        """A ciphertext from `to_bytes` output, for `context`'s parameter set."""
    @property
    def level(self) -> int:
        """Levels left (rescalings still possible)."""
    @property
    def scale(self) -> float: ...
    @property
    def slots(self) -> int: ...
    @property
    def size(self) -> int:
        """Number of polynomials (2, or 3 after `multiply_no_relin`)."""
    @property
    def context(self) -> CkksContext:
        """A context of this ciphertext's parameter set."""
    def to_bytes(self) -> bytes:
        """The ciphertext in the rnsfhe binary format."""
    def __add__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __radd__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __sub__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __rsub__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __mul__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __rmul__(self, other: CkksOperand) -> CkksCiphertext: ...
    def __neg__(self) -> CkksCiphertext: ...
    def __gt__(self, other: Union[CkksCiphertext, float]) -> CkksCiphertext: ...  # type: ignore[override]
    def __lt__(self, other: Union[CkksCiphertext, float]) -> CkksCiphertext: ...  # type: ignore[override]
    def __pow__(self, k: int, modulo: None = None) -> CkksCiphertext: ...
    def rescale(self) -> CkksCiphertext:
        """RS by the top prime."""
    def rotate(self, step: int) -> CkksCiphertext:
        """Rotates the slots left by `step` with the registered Galois keys."""
    def conjugate(self) -> CkksCiphertext:
        """Conjugates every slot with the registered Galois keys."""
    def bootstrap(self) -> CkksCiphertext:
        """The bootstrap with the bootstrapping keys registered for this ciphertext's key pair
        (`CkksContext.bootstrap`).
        """

class CkksMatrix:
    """A matrix encoded for `CkksContext.matmul` (see the module doc)."""
    @property
    def shape(self) -> Tuple[int, int]:
        """(rows, cols) of the matrix."""
    @property
    def level(self) -> int:
        """The level of the vectors it multiplies (the product is one level down)."""
    @property
    def slots(self) -> int:
        """The slot count of the vectors it multiplies."""
    @property
    def rotation_steps(self) -> list[int]:
        """The rotation steps `matmul` needs Galois keys for (`ctx.galois_keys(sk, steps=...)`)."""
    @property
    def batch(self) -> int:
        """The number of vectors per ciphertext."""
    @property
    def layout(self) -> str:
        """"rows" or "interleaved"."""
    @property
    def stride(self) -> int:
        """The slots each vector owns: the stride of "rows", slots / batch "interleaved"."""
    def pack(self, x: npt.ArrayLike) -> npt.NDArray[Any]:
        """The slot values of a (batch, cols) array (or, for batch 1, a vector of cols) in this
        matrix's layout, zeros elsewhere: `ctx.encrypt(mat.pack(X), pk)`. Float64 for real input,
        complex128 for complex.
        """
    def unpack(self, values: npt.ArrayLike) -> npt.NDArray[Any]:
        """The (batch, rows) products out of the decrypted slots of `matmul`'s result
        (`ctx.decrypt(y, sk)`), the inverse of `pack`; the dtype of `values`.
        """

class CkksMatrixProduct:
    """The encoded transforms of an encrypted d x d matrix product (see the module doc)."""
    @property
    def d(self) -> int:
        """The padded dimension d = max(d1, d2, d3): every matrix is row-major with stride d."""
    @property
    def shape(self) -> Tuple[int, int, int]:
        """(d1, d2, d3): A is d1 x d2, B d2 x d3."""
    @property
    def level(self) -> int:
        """The level of the inputs (the product is 3 levels down)."""
    @property
    def slots(self) -> int:
        """The slot count of the inputs (at least d^2)."""
    @property
    def rotation_steps(self) -> list[int]:
        """The rotation steps `matmul_encrypted` needs Galois keys for."""
    def pack(self, a: npt.ArrayLike) -> npt.NDArray[Any]:
        """The slot values of A (d1 x d2) or B (d2 x d3): row-major with stride d, zeros elsewhere
        (`ctx.encrypt(p.pack(A), pk)`). Float64 for real input, complex128 for complex.
        """
    def unpack(self, values: npt.ArrayLike) -> npt.NDArray[Any]:
        """The d1 x d3 product out of the decrypted slots of `matmul_encrypted`'s result
        (`ctx.decrypt(c, sk)`); the dtype of `values`.
        """

class CkksContext:
    """A CKKS context: keys, encoding of real or complex vectors, encryption, every operation and the
    Cheon et al. (SAC 2018) functions. Contexts with equal parameters are interchangeable.
    """
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> CkksContext:
        """The context of a parameter set's bytes (validated again, security included, unless
        a live context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    @property
    def fingerprint(self) -> str:
        """The parameter set's fingerprint (16 hex digits): every plaintext, ciphertext and key
        of these parameters carries it in its bytes, and loading refuses another.
        """
    def to_bytes(self) -> bytes:
        """The context's parameter set as bytes (`from_bytes` rebuilds the context)."""
    def __init__(self, params: Optional[CkksParameters] = None, *, seed: Optional[bytes] = None) -> None: ...
    @property
    def params(self) -> CkksParameters: ...
    @property
    def security(self) -> str:
        """The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a
        context made with `seed=` (reproducible keys and encryptions: tests only).
        """
    @property
    def slots(self) -> int:
        """N/2 complex slots."""
    @property
    def max_level(self) -> int:
        """The top level L (fresh ciphertexts)."""
    def scale_at(self, level: int) -> float:
        """The scale of ciphertexts at `level` (OpenFHE's FLEXIBLEAUTO): 2^scale_bits at the scale
        level R (`params.scale_level`, the top by default), Delta_l^2 / q_l one level below l
        (and sqrt(Delta_{l-1} q_l) above R). Operators and methods keep every ciphertext of a level
        at this scale, so ciphertexts of one level add without spending a level.
        """
    def bootstrapping_keys(self, sk: SecretKey, *, progress: ProgressArg = None) -> BootstrappingKeys:
        """The keys of this context's bootstrap for `sk` (parameters from
        `CkksParameters.bootstrappable`): only the rotations its stages use, each at its level,
        seeded. Registered for the key pair, like `relin_key`. `progress`: True (default: a tqdm
        bar when tqdm is installed, else a line on stderr), False, or a callable(done, total).
        """
    def register_bootstrapping_keys(self, keys: BootstrappingKeys) -> None:
        """Registers loaded bootstrapping keys for their key pair."""
    def bootstrapping_keys_from_bytes(self, data: Buffer) -> BootstrappingKeys:
        """Bootstrapping keys from `BootstrappingKeys.to_bytes` output (not registered)."""
    def bootstrap(self, ct: CkksCiphertext, keys: Optional[BootstrappingKeys] = None) -> CkksCiphertext:
        """A ciphertext at level `bootstrap_min_level` or above refreshed to `bootstrap_level` (the
        same slots): with `keys`, or the bootstrapping keys registered for its key pair. The
        CoeffsToSlots-first presets take any level (0 and up); the SlotsToCoeffs-first ones
        (`bootstrappable(secret=192)`, N = 2^16) run SlotsToCoeffs first and need its levels,
        and refuse a lower input with a LevelMismatchError saying how many levels it lacks.
        """
    def bootstrap_timed(
        self, ct: CkksCiphertext, keys: Optional[BootstrappingKeys] = None
    ) -> Tuple[CkksCiphertext, dict[str, float]]:
        """`bootstrap` with the wall time of each step in seconds: a dict with `mod_raise`,
        `coeffs_to_slots`, `eval_mod`, `slots_to_coeffs`, `other` (bringing the input onto the
        chain, combining EvalMod's outputs) and `total`. With META-BTS each step sums both
        iterations.
        """
    @property
    def bootstrap_level(self) -> int:
        """The level of bootstrapped ciphertexts (the residual top level)."""
    @property
    def bootstrap_min_level(self) -> int:
        """The lowest level a ciphertext may have to be bootstrapped: 0 for the CoeffsToSlots-first
        presets, SlotsToCoeffs' input level for the SlotsToCoeffs-first ones.
        """
    @property
    def bootstraps(self) -> int:
        """The bootstraps this context has run: `bootstrap` calls and those of circuits that
        bootstrap by themselves (comparisons, `inverse` on a domain, ...).
        """
    def keygen(self) -> Tuple[SecretKey, PublicKey]:
        """A fresh secret key and its public key."""
    def relin_key(self, sk: SecretKey) -> RelinKey:
        """The relinearisation key of `sk`; also registered for `*` and `**` on ciphertexts."""
    def galois_keys(
        self,
        sk: SecretKey,
        steps: Optional[Sequence[int]] = None,
        *,
        conjugation: bool = False,
        for_sum: bool = False,
        level: Optional[int] = None,
    ) -> GaloisKeys:
        """Rotation keys for `steps` (default: every power of two below N/2, enough for `sum_slots`,
        `mean` and `variance`) and the conjugation key if `conjugation`; with `for_sum=True`,
        the powers of two as well as `steps` (the union). With `level`, keys for ciphertexts at
        levels <= `level` only (smaller: e.g. `ctx.bootstrap_level` for work between bootstraps).
        Also registered.
        """
    def register_keys(
        self, *, relin_key: Optional[RelinKey] = None, galois_keys: Optional[GaloisKeys] = None
    ) -> None:
        """Registers loaded evaluation keys for the operators and ciphertext methods."""
    def encode(
        self, values: RealValues, *, level: Optional[int] = None, scale: Optional[float] = None
    ) -> CkksPlaintext:
        """Encodes up to N/2 real or complex values (finite) at `level` (default: the top) and `scale`
        (default: the level's scale `scale_at(level)`).
        """
    def decode(self, pt: CkksPlaintext, *, complex: bool = False) -> npt.NDArray[np.float64]:
        """The slots of a plaintext: float64 real parts, or complex128 with `complex=True`."""
    def encrypt(
        self, x: Union[CkksPlaintext, RealValues], key: Union[PublicKey, SecretKey]
    ) -> CkksCiphertext:
        """Encrypts a plaintext or values (as `encode` takes them): with a public key, or with a
        secret key (symmetric; stored at half size by `to_bytes` where the scheme seeds it).
        """
    def decrypt_plaintext(
        self, ct: CkksCiphertext, sk: SecretKey, *, flood: Optional[Flooding] = None
    ) -> CkksPlaintext:
        """The decrypted phase m + e as a plaintext; with `flood`, plus the flooding noise (see
        `decrypt`).
        """
    def decrypt(
        self, ct: CkksCiphertext, sk: SecretKey, *, complex: bool = False, flood: Optional[Flooding] = None
    ) -> npt.NDArray[np.float64]:
        """Decrypts and decodes: the ciphertext's slots (the encoded length rounded up to a power of
        two) as float64 real parts, or complex128 with `complex=True`.

        Without `flood` the result holds the ciphertext's error, a function of the secret key:
        anyone who sees it together with the ciphertext recovers the key (Li and Micciancio,
        Eurocrypt 2021). Keep raw decryptions to the key's owner; decrypt with
        `flood=rnsfhe.Flooding(noise_log2, decryptions=D)` whenever the values are shared (a
        server, another party, a published result), which adds noise that hides the error
        (IND-CPA-D) at a cost of about lambda/2 + log2(N) bits of precision.
        """
    def error_log2(
        self, ct: CkksCiphertext, sk: SecretKey, expected: Union[CkksPlaintext, RealValues]
    ) -> float:
        """log2 of the largest coefficient of ct's error against `expected` (a plaintext at its
        level: the exact encoding it should hold; or values, encoded at its level and scale,
        which adds the encoder's rounding, about 2^-50 of the scale): the `noise_log2` of a
        `Flooding`. Measure it on a rehearsal of the computation under a throwaway key pair,
        not on the ciphertext then decrypted for others.
        """
    def add(self, a: CkksCiphertext, b: CkksCiphertext) -> CkksCiphertext: ...
    def sub(self, a: CkksCiphertext, b: CkksCiphertext) -> CkksCiphertext: ...
    def align(self, a: CkksCiphertext, b: CkksCiphertext) -> Tuple[CkksCiphertext, CkksCiphertext]:
        """a and b at one level and one scale (what `+` and `-` do before adding): the higher one is
        brought down onto the other's level and scale; ciphertexts of one level already share its
        scale, and only scales chosen by hand that differ at one level spend a level.
        """
    def negate(self, a: CkksCiphertext) -> CkksCiphertext: ...
    def add_plain(self, a: CkksCiphertext, m: Union[CkksPlaintext, RealValues]) -> CkksCiphertext:
        """a + m; values are encoded at a's level and scale."""
    def sub_plain(self, a: CkksCiphertext, m: Union[CkksPlaintext, RealValues]) -> CkksCiphertext:
        """a - m; values are encoded at a's level and scale."""
    def mul_plain(self, a: CkksCiphertext, m: Union[CkksPlaintext, RealValues]) -> CkksCiphertext:
        """a * m without rescaling (the scale multiplies); values are encoded at the scale that makes
        the product rescale onto the level's scale (the level's own scale for a ciphertext on it).
        """
    def add_const(self, a: CkksCiphertext, c: float) -> CkksCiphertext:
        """a + c for a real constant c."""
    def mul_const(self, a: CkksCiphertext, c: float) -> CkksCiphertext:
        """a * c for a real constant c, rescaled onto the scale of the level below (one level), as
        `a * c`.
        """
    def multiply(
        self, a: CkksCiphertext, b: CkksCiphertext, rlk: Optional[RelinKey] = None, *, rescale: bool = True
    ) -> CkksCiphertext:
        """a * b relinearised and, if `rescale` (default), rescaled; a and b at the same level."""
    def multiply_no_relin(self, a: CkksCiphertext, b: CkksCiphertext) -> CkksCiphertext:
        """a * b without relinearisation (3 parts; HPR: Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16))."""
    def relinearize(self, a: CkksCiphertext, rlk: Optional[RelinKey] = None) -> CkksCiphertext: ...
    def rescale(self, a: CkksCiphertext) -> CkksCiphertext:
        """RS: divides by the top prime q_level, one level down."""
    def matrix(
        self,
        m: npt.ArrayLike,
        *,
        level: Optional[int] = None,
        slots: Optional[int] = None,
        batch: int = 1,
        layout: str = "rows",
        stride: Optional[int] = None,
    ) -> CkksMatrix:
        """A plaintext matrix M (rows x cols, any numeric dtype, real or complex) encoded
        once for `matmul` as the Halevi-Shoup diagonals of the matrix applying M to each
        of `batch` vectors of one ciphertext, at the cost of one product: `layout="rows"`
        (default) puts vector j in slots [j stride, j stride + stride) (`stride` default
        max(rows, cols)): a ciphertext of a row-major (batch, stride) array, 2 stride - 1
        diagonals; `"interleaved"` puts entry c of vector j at slot c batch + j (batch a
        power of two): n = slots / batch diagonals, the cheaper. `mat.pack(X)` lays a
        (batch, cols) array out, `mat.unpack(values)` takes the (batch, rows) products out.
        For vectors of `slots` slots (default: the smallest power of two holding the batch)
        at `level` (default: the top).
        """
    def matmul(
        self, a: CkksCiphertext, m: Union[CkksMatrix, npt.ArrayLike], keys: Optional[GaloisKeys] = None
    ) -> CkksCiphertext:
        """y = M x for every vector x of `a` (laid out as `m.pack` does; one vector: x in the
        first cols slots, zeros up to the matrix's slots, as a ciphertext of x padded with
        zeros), `m` a `CkksMatrix` (or an array, encoded for one vector at `a`'s level and
        slots); y comes out where x was (`m.unpack`), one level down, by hoisted baby-step
        giant-step. Galois keys for `matrix.rotation_steps`: `keys`, or those registered for
        `a`'s key pair.
        """
    def sign(
        self, a: CkksCiphertext, *, alpha: int = 12, bound: float = 1.0, bootstrap: bool = True, rlk: Optional[RelinKey] = None
    ) -> CkksCiphertext:
        """sign(x) for x in [-bound, bound]: +-1 where |x| >= 2^-alpha bound (within the
        composite's error; between, a value in [-1, 1] of x's sign). Bootstraps by itself
        when the context is bootstrappable and has bootstrapping keys for the key pair
        (`bootstrap=False`: never); else it needs the composite's depth in levels.
        """
    def step(
        self, a: CkksCiphertext, *, alpha: int = 12, bound: float = 1.0, bootstrap: bool = True, rlk: Optional[RelinKey] = None
    ) -> CkksCiphertext:
        """step(x): 1 for x > 0, 0 for x < 0 ((sign + 1) / 2; `sign` for the domain)."""
    def abs(
        self, a: CkksCiphertext, *, alpha: int = 12, bound: float = 1.0, bootstrap: bool = True, rlk: Optional[RelinKey] = None
    ) -> CkksCiphertext:
        """|x| = x sign(x) (within 2 |x| where |x| < 2^-alpha bound)."""
    def relu(
        self, a: CkksCiphertext, *, alpha: int = 12, bound: float = 1.0, bootstrap: bool = True, rlk: Optional[RelinKey] = None
    ) -> CkksCiphertext:
        """ReLU(x) = max(x, 0) = x step(x) (within |x| where |x| < 2^-alpha bound)."""
    def clip(
        self,
        a: CkksCiphertext,
        lo: float,
        hi: float,
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """clip(x, lo, hi) for x in [-bound, bound], -bound <= lo < hi <= bound."""
    def greater(
        self,
        a: CkksCiphertext,
        b: Union[CkksCiphertext, float],
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """The mask of a > b (1 where a > b, 0 where a < b; `b` a ciphertext or a number),
        for a, b in [-bound, bound]: decided where |a - b| >= 2^(1-alpha) bound.
        """
    def less(
        self,
        a: CkksCiphertext,
        b: Union[CkksCiphertext, float],
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """The mask of a < b (`greater` with the operands swapped)."""
    def max(
        self,
        a: CkksCiphertext,
        b: Union[CkksCiphertext, float],
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """max(a, b) slot by slot (`b` a ciphertext or a number), a, b in [-bound, bound]."""
    def min(
        self,
        a: CkksCiphertext,
        b: Union[CkksCiphertext, float],
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """min(a, b) slot by slot."""
    def comparison_steps(self, block: int, slots: Optional[int] = None) -> list[int]:
        """The rotation steps `max_slots`, `argmax` and `top_k` need for blocks of `block`
        slots (default: the ciphertext's slots): make Galois keys for them.
        """
    def max_slots(
        self,
        a: CkksCiphertext,
        block: Optional[int] = None,
        *,
        alpha: int = 12,
        bound: float = 1.0,
        bootstrap: bool = True,
        keys: Optional[GaloisKeys] = None,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """The maximum of each block of `block` consecutive slots (default: all the
        ciphertext's slots), in every slot of its block: log2(block) `max`es over
        rotations. Galois keys for `comparison_steps(block)`: `keys` or the registered ones.
        """
    def argmax(
        self,
        a: CkksCiphertext,
        block: Optional[int] = None,
        *,
        gap: float = 0.0009765625,
        alpha: int = 14,
        bound: float = 1.0,
        bootstrap: bool = True,
        keys: Optional[GaloisKeys] = None,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """The argmax of each block as a 0/1 mask (1 in the slot of the block's maximum),
        for maxima that exceed the rest of their block by at least `gap`. Within `gap`
        of the maximum, slots get a value in [0, 1]. Choose alpha >= log2(8 bound / gap).
        """
    def top_k(
        self,
        a: CkksCiphertext,
        k: int,
        block: Optional[int] = None,
        *,
        gap: float = 0.0009765625,
        alpha: int = 14,
        bound: float = 1.0,
        bootstrap: bool = True,
        keys: Optional[GaloisKeys] = None,
        rlk: Optional[RelinKey] = None,
    ) -> list[Tuple[CkksCiphertext, CkksCiphertext]]:
        """The k largest values of each block, largest first: a list of (maximum, mask)
        pairs, each maximum in every slot of its block and its argmax mask.
        """
    def matrix_product(
        self,
        shape: Union[int, Tuple[int, int, int]],
        *,
        level: Optional[int] = None,
        slots: Optional[int] = None,
    ) -> CkksMatrixProduct:
        """The transforms of an encrypted matrix product (Jiang, Kim, Lauter and Song, ACM CCS
        2018), encoded once for `matmul_encrypted`: `shape` d (d x d matrices) or (d1, d2,
        d3) (d1 x d2 by d2 x d3; d1 dividing d = max sums d1 terms instead of d), for
        ciphertexts of `slots` slots (default: the smallest power of two holding d^2) at
        `level` (default: the top, at least 3). Its `rotation_steps` are the Galois keys it
        needs; `pack` and `unpack` lay matrices out row-major with stride d.
        """
    def matmul_encrypted(
        self,
        a: CkksCiphertext,
        b: CkksCiphertext,
        product: Union[CkksMatrixProduct, int, Tuple[int, int, int]],
        rlk: Optional[RelinKey] = None,
        keys: Optional[GaloisKeys] = None,
    ) -> CkksCiphertext:
        """A B for ciphertexts `a`, `b` of A (d1 x d2) and B (d2 x d3) row-major with stride d
        (`product.pack`), `product` a `CkksMatrixProduct` (or its shape, encoded for `a`'s
        level and slots): the product row-major with stride d (`product.unpack`), 3 levels
        down. Keys: `rlk` and `keys` (for `product.rotation_steps`), or those registered
        for `a`'s key pair.
        """
    def drop_to_level(self, a: CkksCiphertext, level: int) -> CkksCiphertext:
        """The same values at a lower level, on that level's scale (a product with 1 and a rescale
        take the last step; a scale chosen by hand is kept).
        """
    def rotate(self, a: CkksCiphertext, step: int, keys: Optional[GaloisKeys] = None) -> CkksCiphertext:
        """Rotates the slots left by `step` (right when negative)."""
    def rotate_many(
        self, a: CkksCiphertext, steps: Sequence[int], keys: Optional[GaloisKeys] = None
    ) -> list[CkksCiphertext]:
        """The rotations of `a` left by every step (a list, one ciphertext per step; step 0 gives a
        copy), from one decomposition of the ciphertext (hoisting): each equals `rotate(a, step)`.
        """
    def sum_rotations(
        self,
        a: CkksCiphertext,
        steps: Sequence[int],
        weights: Optional[Sequence[Union[float, complex, RealValues]]] = None,
        keys: Optional[GaloisKeys] = None,
    ) -> CkksCiphertext:
        """sum_i weights[i] * rotate(a, steps[i]) with one decomposition and one ModDown for the whole
        sum (double hoisting). `weights`: None (all 1: same level and scale), or one per step,
        real or complex numbers or slot vectors; weighted sums spend one level and land on the
        scale of the level below (`scale_at(level - 1)`).
        """
    def conjugate(self, a: CkksCiphertext, keys: Optional[GaloisKeys] = None) -> CkksCiphertext:
        """Complex conjugation of every slot (needs `galois_keys(..., conjugation=True)`)."""
    def polynomial(
        self,
        a: CkksCiphertext,
        coeffs: Sequence[float],
        *,
        method: Literal["bsgs", "powers"] = "bsgs",
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """sum_i coeffs[i] x^i: baby-step giant-step (`method="bsgs"`, default) or the power tree
        (`method="powers"`).
        """
    def chebyshev(
        self,
        a: CkksCiphertext,
        f: Callable[[float], float],
        lo: float,
        hi: float,
        degree: int,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """f on [lo, hi] by its degree-d Chebyshev interpolant (f is called at the d + 1 nodes)."""
    def exp(self, a: CkksCiphertext, rlk: Optional[RelinKey] = None) -> CkksCiphertext:
        """exp(x) by its Taylor polynomial of degree 7 (Cheon et al. (SAC 2018) Table 2)."""
    def sigmoid(self, a: CkksCiphertext, rlk: Optional[RelinKey] = None) -> CkksCiphertext:
        """The logistic function by its Taylor polynomial of degree 7 (Cheon et al. (SAC 2018) Table 2)."""
    def sum_slots(
        self, a: CkksCiphertext, count: Optional[int] = None, keys: Optional[GaloisKeys] = None
    ) -> CkksCiphertext:
        """Every slot set to the sum of the first `count` slots (a power of two, default: the
        ciphertext's slots; a smaller count clears the other slots first, one level).
        """
    def mean(
        self, a: CkksCiphertext, count: Optional[int] = None, keys: Optional[GaloisKeys] = None
    ) -> CkksCiphertext:
        """The mean of the first `count` slots (Cheon et al. (SAC 2018) Table 3), in every slot, at the input's scale
        (one level; one more for a count below the ciphertext's slots).
        """
    def variance(
        self,
        a: CkksCiphertext,
        count: Optional[int] = None,
        rlk: Optional[RelinKey] = None,
        keys: Optional[GaloisKeys] = None,
    ) -> CkksCiphertext:
        """The variance of the first `count` slots (Cheon et al. (SAC 2018) Table 3), in every slot; E[x^2] and E[x]^2
        meet at one exact scale, so a small spread keeps its precision (two levels, three for a count
        below the ciphertext's slots).
        """
    def train_logistic(
        self,
        z: CkksCiphertext,
        samples: int,
        features: int,
        iterations: int,
        rlk: Optional[RelinKey] = None,
        keys: Optional[GaloisKeys] = None,
        *,
        bootstrap: bool = False,
        progress: ProgressArg = None,
    ) -> CkksCiphertext:
        """Logistic-regression training on encrypted data (Cheon et al. (SAC 2018) section 5.3, Nesterov's accelerated
        gradient): `z` encrypts `rnsfhe.logistic.pack(x, y)` (samples x features, bias included);
        returns the encrypted weights (slot j holds beta_j). Needs 6 levels per iteration plus one and
        the rotation keys of `rnsfhe.logistic.rotation_steps(samples, features)`. With
        `bootstrap=True` (bootstrappable parameters, registered bootstrapping keys, the conjugation
        key), any number of iterations: the weights are bootstrapped, one bootstrap per refresh,
        when their levels run out (|weights| <= `rnsfhe.logistic.WEIGHT_BOUND`); `progress` as for
        `bootstrapping_keys`, over the iterations.
        """
    def inverse(
        self,
        a: CkksCiphertext,
        iterations: Optional[int] = None,
        rlk: Optional[RelinKey] = None,
        *,
        domain: Optional[Tuple[float, float]] = None,
        bits: Optional[float] = None,
    ) -> CkksCiphertext:
        """1/x. With `domain=(lo, hi)` (0 < lo < hi, such as (2**-10, 1)): to a relative
        error of 2**-`bits` (default 20) before the scheme's noise, by an initial
        polynomial, Goldschmidt iterations and a final Newton step, the count computed
        from the initial error; bootstrapped in between when the parameters are
        bootstrappable and bootstrapping keys are registered for `a`'s key pair (then
        a fresh `a` is first dropped to `bootstrap_level`), else within `a`'s levels.
        Inputs just outside the domain converge more slowly; far outside (x <= 0,
        x > hi + lo) they get meaningless values, which can spoil every slot.
        Without a domain: x in (0, 2) by `iterations` steps (default 4) of [12] Alg. 2
        (Cheon et al. (SAC 2018) Table 2).
        """
    def sqrt(
        self,
        a: CkksCiphertext,
        *,
        domain: Tuple[float, float],
        bits: Optional[float] = None,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """sqrt(x) for x in `domain` = (lo, hi), 0 < lo < hi, to a relative error of
        2**-`bits` (default 20), as `inverse` with a domain (bootstrapped in between when
        it can be).
        """
    def inv_sqrt(
        self,
        a: CkksCiphertext,
        *,
        domain: Tuple[float, float],
        bits: Optional[float] = None,
        rlk: Optional[RelinKey] = None,
    ) -> CkksCiphertext:
        """1/sqrt(x) for x in `domain` = (lo, hi), as `sqrt`."""
    def ciphertext_from_bytes(self, data: Buffer) -> CkksCiphertext:
        """A ciphertext from the ciphertext class's `to_bytes` output of this parameter set."""
    def plaintext_from_bytes(self, data: Buffer) -> CkksPlaintext:
        """A plaintext from the plaintext class's `to_bytes` output of this parameter set."""
    def secret_key_from_bytes(self, data: Buffer) -> SecretKey:
        """A secret key from its `to_bytes(allow_secret=True)` output."""
    def public_key_from_bytes(self, data: Buffer) -> PublicKey: ...
    def relin_key_from_bytes(self, data: Buffer) -> RelinKey: ...
    def galois_keys_from_bytes(self, data: Buffer) -> GaloisKeys: ...

class HprParameters:
    """HPR-FV parameters (Bajard et al. (HPR-FV, ePrint 2019/500)): ring degree n, plaintext modulus t, k = `primes` primes of `bits`
    bits forming p, d = `digits` digits (q = p^d), error `sigma`, checked against `security`.
    """
    def __init__(
        self,
        degree: int = 4096,
        plain_modulus: int = 65537,
        *,
        primes: int = 1,
        digits: int = 2,
        bits: int = 50,
        sigma: float = 3.2,
        security: Security = None,
    ) -> None: ...
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> HprParameters:
        """Parameters from `to_bytes` output (validated again, security included, unless a live
        context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    def to_bytes(self) -> bytes:
        """The parameter set in the rnsfhe binary format (CKKS: then its bootstrapping preset)."""
    @property
    def degree(self) -> int: ...
    @property
    def plain_modulus(self) -> int: ...
    @property
    def digits(self) -> int:
        """d: q = p^d."""
    @property
    def moduli(self) -> list[int]:
        """The ciphertext moduli: q_0, q_1, ... (level l has q_0..q_l); for HPR the k primes of
        p (q = p^d).
        """
    @property
    def auxiliary_moduli(self) -> list[int]:
        """B_sk = B u {m_sk} (m_sk last)."""
    @property
    def sigma(self) -> float: ...
    @property
    def log_q(self) -> float: ...
    @property
    def security(self) -> str:
        """128, 192, 256 or "insecure"."""

class HprSecretKey:
    """A secret key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self, *, allow_secret: bool = False) -> bytes:
        """The secret key in the rnsfhe binary format. Refused unless `allow_secret=True`:
        whoever holds the bytes can decrypt every ciphertext of this key pair.
        """
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprSecretKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class HprPublicKey:
    """A public key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprPublicKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class HprRelinKey:
    """A relinearisation key (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    @property
    def relinearization(self) -> str:
        """"residue" (single-digit r_{i,j}, section 4.1) or "digit" (Remark 5)."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprRelinKey:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class HprGaloisKeys:
    """A Galois keys (made by a context; see `to_bytes` and pickling)."""
    @property
    def key_id(self) -> str:
        """The identity of the key pair (16 hex digits), as carried by its ciphertexts and keys."""
    def to_bytes(self) -> bytes:
        """The key in the rnsfhe binary format (load it with the context's `*_from_bytes`)."""
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprGaloisKeys:
        """The key from `to_bytes` output, for `context`'s parameter set (a context of the
        key's scheme).
        """

class HprPlaintext:
    """An HPR-FV plaintext (an element of R_t): `ctx.encode(values)` batches integers into the slots,
    `ctx.encode(values, coefficients=True)` sets the polynomial's coefficients.
    """
    __array_ufunc__: None  # numpy defers its operators to this class
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprPlaintext:
        """A plaintext from `to_bytes` output, for `context`'s parameter set."""
    def coefficients(self) -> npt.NDArray[np.int64]:
        """The polynomial's coefficients in [0, t)."""
    def to_bytes(self) -> bytes: ...

HprOperand = Union["HprCiphertext", HprPlaintext, int, np.integer, IntValues]

class HprCiphertext:
    """An HPR-FV ciphertext. Operators: `+ - *` with ciphertexts, plaintexts, integers and integer
    sequences (batched), unary `-`, and `**` for small powers; products are relinearised with the
    registered key of the key pair.
    """
    __array_ufunc__: None  # numpy defers its operators to this class
    @staticmethod
    def from_bytes(context: HprContext, data: Buffer) -> HprCiphertext:
        """A ciphertext from `to_bytes` output, for `context`'s parameter set."""
    def to_bytes(self) -> bytes:
        """The ciphertext in the rnsfhe binary format."""
    @property
    def key_id(self) -> Optional[str]:
        """The identity of the key pair it is encrypted under (16 hex digits; None for a
        trivial ciphertext). Operators find the evaluation keys registered for this key pair.
        """
    @property
    def size(self) -> int:
        """Number of polynomials (2, or 3 after `multiply_no_relin`)."""
    @property
    def context(self) -> HprContext:
        """A context of this ciphertext's parameter set."""
    def __add__(self, other: HprOperand) -> HprCiphertext: ...
    def __radd__(self, other: HprOperand) -> HprCiphertext: ...
    def __sub__(self, other: HprOperand) -> HprCiphertext: ...
    def __rsub__(self, other: HprOperand) -> HprCiphertext: ...
    def __mul__(self, other: HprOperand) -> HprCiphertext: ...
    def __rmul__(self, other: HprOperand) -> HprCiphertext: ...
    def __neg__(self) -> HprCiphertext: ...
    def rotate_rows(self, step: int) -> HprCiphertext:
        """Rotates both rows of the slot matrix by `step` (registered Galois keys)."""
    def __pow__(self, k: int, modulo: None = None) -> HprCiphertext: ...
    def rotate_columns(self) -> HprCiphertext:
        """Swaps the two rows of the slot matrix (registered Galois keys)."""
    def sum_slots(self) -> HprCiphertext:
        """`ctx.sum_slots(self)` with the registered Galois keys."""

class HprContext:
    """An HPR-FV context: keys, batch encryption, decryption (Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1) and evaluation.
    `seed` (32 bytes) makes key generation and encryption reproducible (tests only).
    """
    @staticmethod
    def from_bytes(data: Buffer, security: Optional[str] = None) -> HprContext:
        """The context of a parameter set's bytes (validated again, security included, unless
        a live context has exactly these bytes). A set marked insecure loads only with
        `security="insecure"`, the opt-in its constructor asked for.
        """
    @property
    def fingerprint(self) -> str:
        """The parameter set's fingerprint (16 hex digits): every plaintext, ciphertext and key
        of these parameters carries it in its bytes, and loading refuses another.
        """
    def to_bytes(self) -> bytes:
        """The context's parameter set as bytes (`from_bytes` rebuilds the context)."""
    def __init__(self, params: Optional[HprParameters] = None, *, seed: Optional[bytes] = None) -> None: ...
    @property
    def params(self) -> HprParameters: ...
    @property
    def security(self) -> str:
        """The parameters' security (128, 192, 256 or "insecure"), or "insecure (seeded)" for a
        context made with `seed=` (reproducible keys and encryptions: tests only).
        """
    @property
    def slots(self) -> int:
        """Number of batching slots (0 when t does not allow batching)."""
    def keygen(self) -> tuple[HprSecretKey, HprPublicKey]:
        """A fresh secret key and its public key."""
    def relin_key(self, sk: HprSecretKey, relinearization: str = "residue") -> HprRelinKey:
        """The relinearisation key of `sk` ("residue": single-digit r_{i,j}, Bajard et al. (HPR-FV, ePrint 2019/500) section 4.1;
        "digit": whole digits, Remark 5); also registered for `*` on this key pair's ciphertexts.
        """
    def galois_keys(
        self,
        sk: HprSecretKey,
        steps: Optional[Sequence[int]] = None,
        *,
        columns: bool = True,
        for_sum: bool = False,
    ) -> HprGaloisKeys:
        """Galois keys for row rotations by `steps` (default +1 and -1, or none with `for_sum`)
        and the row swap if `columns`; with `for_sum=True`, also the keys `sum_slots` needs (the
        union with `steps`). Also registered.
        """
    def register_keys(
        self,
        *,
        relin_key: Optional[HprRelinKey] = None,
        galois_keys: Optional[HprGaloisKeys] = None,
    ) -> None:
        """Registers loaded evaluation keys for the operators and ciphertext methods."""
    def encode(self, values: IntValues, *, coefficients: bool = False) -> HprPlaintext:
        """Batch-encodes integers (|v| < t, negative values mod t) into the slots, or with
        `coefficients=True` into the polynomial's coefficients (any t).
        """
    def decode(
        self, pt: HprPlaintext, *, signed: bool = False, coefficients: bool = False
    ) -> npt.NDArray[np.int64]:
        """The slot values (or coefficients) of a plaintext as an int64 array, in [0, t) or, with
        `signed=True`, centred in (-t/2, t/2].
        """
    def encrypt(
        self, x: Union[HprPlaintext, IntValues], key: Union[HprPublicKey, HprSecretKey]
    ) -> HprCiphertext:
        """Encrypts a plaintext or values (as `encode` takes them): with a public key, or with a
        secret key (symmetric; stored at half size by `to_bytes` where the scheme seeds it).
        """
    def decrypt_plaintext(
        self, ct: HprCiphertext, sk: HprSecretKey, *, check_noise: bool = True
    ) -> HprPlaintext:
        """Decrypts to a plaintext (Bajard et al. (HPR-FV, ePrint 2019/500) Alg. 1). With `check_noise` (default) a ciphertext whose
        noise budget is exhausted raises `NoiseBudgetExhaustedError` instead of decrypting to wrong
        values.
        """
    def decrypt(
        self,
        ct: HprCiphertext,
        sk: HprSecretKey,
        *,
        signed: bool = False,
        coefficients: bool = False,
        check_noise: bool = True,
    ) -> npt.NDArray[np.int64]:
        """Decrypts and decodes the slots (see `decode`); `check_noise` as in `decrypt_plaintext`."""
    def noise_budget(self, ct: HprCiphertext, sk: HprSecretKey) -> int:
        """Remaining noise budget in bits (exact). 0 when the ciphertext may no longer decrypt
        correctly: the measured noise or the noise bound the ciphertext carries reached the limit (a
        ciphertext loaded from bytes carries no bound and is judged by the measurement alone).
        """
    def sum_slots(
        self, a: HprCiphertext, keys: Optional[HprGaloisKeys] = None
    ) -> HprCiphertext:
        """Every slot set to the sum of all slots (keys from `galois_keys(sk, for_sum=True)`, or the
        registered ones).
        """
    def add(self, a: HprCiphertext, b: HprCiphertext) -> HprCiphertext: ...
    def sub(self, a: HprCiphertext, b: HprCiphertext) -> HprCiphertext: ...
    def multiply_no_relin(self, a: HprCiphertext, b: HprCiphertext) -> HprCiphertext:
        """a * b without relinearisation (3 parts; HPR: Bajard et al. (HPR-FV, ePrint 2019/500) Prop. 1, eq. (16))."""
    def relinearize(
        self, a: HprCiphertext, relin_key: Optional[HprRelinKey] = None
    ) -> HprCiphertext:
        """Relinearises a 3-part ciphertext (section 4.1) with `relin_key` or the registered one."""
    def ciphertext_from_bytes(self, data: Buffer) -> HprCiphertext:
        """A ciphertext from the ciphertext class's `to_bytes` output of this parameter set."""
    def plaintext_from_bytes(self, data: Buffer) -> HprPlaintext:
        """A plaintext from the plaintext class's `to_bytes` output of this parameter set."""
    def secret_key_from_bytes(self, data: Buffer) -> HprSecretKey:
        """A secret key from its `to_bytes(allow_secret=True)` output."""
    def public_key_from_bytes(self, data: Buffer) -> HprPublicKey: ...
    def relin_key_from_bytes(self, data: Buffer) -> HprRelinKey: ...
    def galois_keys_from_bytes(self, data: Buffer) -> HprGaloisKeys: ...

def set_backend(name: str) -> None:
    """Forces the SIMD kernel backend ("scalar", "avx2", "avx512" or "avx512ifma"; the same as the
    `RNSFHE_BACKEND` environment variable), refused when this CPU lacks it. It is a ceiling: contexts
    made afterwards use the fastest backend up to it that suits each modulus; existing ones keep theirs.
    """
def allow_insecure_parameters(allow: bool = True) -> None:
    """Lets this process read parameter sets marked insecure (research only) from bytes and pickles
    without `security="insecure"` on each call (`allow=False` takes it back). The environment
    variable `RNSFHE_ALLOW_INSECURE=1` does the same for a process and its workers. Without either,
    a pickle or bytes of insecure parameters are refused unless this process holds a live context
    of exactly those parameters (made with the constructor's opt-in).
    """
def backend() -> str:
    """The SIMD kernel backend in force (the ceiling set by `set_backend` or `RNSFHE_BACKEND`, else the
    fastest this CPU has).
    """
def set_num_threads(count: int) -> None:
    """Sets the number of threads each rnsfhe operation uses across RNS limbs (0: every core; default 1,
    or the `RNSFHE_NUM_THREADS` environment variable). Results do not depend on it.
    """
def num_threads() -> int:
    """The number of threads each rnsfhe operation uses."""

# Multiparty (rnsfhe.multiparty re-exports these).
_Context = Union[BfvContext, BgvContext, CkksContext]
_Ciphertext = Union[BfvCiphertext, BgvCiphertext, CkksCiphertext]

class Crs:
    """A common reference string: a public 32-byte seed every party of a session agrees on, with an
    optional public instance nonce (up to 64 bytes) that separates protocol instances under one
    seed (a retry, a second key generation): each expands its own polynomials, and the shares of
    one are refused by the aggregators of another. The empty nonce is the seed alone.
    """
    def __init__(self, seed: Optional[bytes] = None, nonce: Optional[bytes] = None) -> None: ...
    @property
    def seed(self) -> bytes:
        """The seed (public)."""
    @property
    def nonce(self) -> bytes:
        """The instance nonce (public; empty for none)."""
    def with_nonce(self, nonce: bytes) -> Crs:
        """The CRS of the same seed for the instance `nonce`."""
    @property
    def id(self) -> int:
        """The CRS's identity, as carried by every share of its session."""

class Crp:
    """The reference polynomials of one protocol instance (public: anyone with the CRS computes
    them). Made by `ckg_crp`, `rkg_crp` or `rtg_crp`; pass it where a `Crs` goes.
    """
    @property
    def crs(self) -> Crs:
        """The common reference string they expand."""
    @property
    def level(self) -> int:
        """The level of the keys."""
    @property
    def elements(self) -> list[int]:
        """The Galois elements (RTG), sorted; empty for CKG and RKG."""

_Reference = Union[Crs, Crp]

class ReceiverSecret:
    """What PCKS's noise bound assumes of the receiver's key pair: one key pair of the parameters'
    distributions (`single()`), the collective key pair of `parties` parties (`collective`), or
    norms the receiver states (`stated`: ||s'||_2 and the deviation of its public key's error).
    """
    @staticmethod
    def single() -> ReceiverSecret:
        """One key pair of the parameters' distributions (`ctx.keygen()`)."""
    @staticmethod
    def collective(parties: int) -> ReceiverSecret:
        """The collective key pair of `parties` parties (a CKG public key)."""
    @staticmethod
    def stated(l2: float, error_sigma: float) -> ReceiverSecret:
        """Stated by the receiver: ||s'||_2 and the standard deviation of its public key's error."""

class Group:
    """A threshold group: t and the parties' indices (party i's Shamir point is i + 1)."""
    def __init__(self, t: int, members: Sequence[int]) -> None: ...
    @property
    def t(self) -> int: ...
    @property
    def members(self) -> list[int]: ...
    @property
    def epoch(self) -> int:
        """The epoch of the sharing (0: the first dealing; a re-sharing's own after)."""
    def subgroup(self, present: Sequence[int]) -> Group:
        """The parties `present` (at least t members) acting together, with this group's t and
        epoch: the group of their rounds with combined secrets.
        """

class Round:
    """What a share answers: a protocol round of one session, input and group."""
    @property
    def protocol(self) -> str:
        """"ckg", "rkg", "rtg", "cks", "pcks" or "shamir"."""
    @property
    def round(self) -> int: ...
    @property
    def crs_id(self) -> int: ...
    @property
    def level(self) -> int: ...
    @property
    def elements(self) -> list[int]: ...
    @property
    def group(self) -> Optional[Group]: ...

class Share:
    """A share, or a (partial or complete) aggregate of shares."""
    def to_bytes(self, *, allow_secret: bool = False) -> bytes:
        """The share in the rnsfhe format (magic, version, CRC, parameters, round, parties, CRS). A
        Shamir share is secret: its bytes need `allow_secret=True`.
        """
    @staticmethod
    def from_bytes(context: _Context, data: Buffer) -> Share:
        """A share from `to_bytes` output, for `context`'s parameter set (refused with
        `ShareRefusedError` when corrupted or foreign).
        """
    @property
    def protocol(self) -> str:
        """"ckg", "rkg", "rtg", "cks", "pcks" or "shamir"."""
    @property
    def round(self) -> int:
        """The protocol's round, from 1."""
    @property
    def round_info(self) -> Round:
        """The full round record."""
    @property
    def party(self) -> Optional[int]:
        """The party whose share it is (None for a sum of several parties' shares)."""
    @property
    def parties(self) -> list[int]:
        """The parties whose shares it sums."""
    @property
    def crs_id(self) -> int:
        """The identity of the session's CRS."""
    @property
    def is_complete(self) -> bool:
        """Whether it is the complete aggregate of its round."""
    @property
    def digest(self) -> bytes:
        """The digest of a single party's share (32 bytes), which the aggregates that count it list
        for that party: keep it (or the share) to check them with `verify_contribution`.
        """
    @property
    def contributions(self) -> dict[int, bytes]:
        """The parties whose shares it sums, each with the digest of its share."""
    def verify_contribution(self, own: Share) -> None:
        """Checks that this aggregate counts `own` (a party's own share, kept when it was sent) for
        that party; raises `ShareRefusedError` ("missing": not counted, "substituted": another
        share counted in its name, "stale": a share of another round).
        """
    def verify_contribution_digest(self, party: int, digest: Buffer) -> None:
        """`verify_contribution` of the share of `digest` (its `digest`) that party `party` sent."""

class Aggregator:
    """The running sum of one round's shares from an expected set of parties."""
    def __init__(self, context: _Context, round: Round, parties: Sequence[int]) -> None: ...
    def add(self, share: Share) -> None:
        """Adds a share (refused with `ShareRefusedError`: duplicate, stale, foreign, unexpected)."""
    def add_bytes(self, data: Buffer) -> None:
        """Adds a share from bytes (also refused when corrupted)."""
    @property
    def missing(self) -> list[int]:
        """The expected parties whose shares have not arrived."""
    @property
    def is_complete(self) -> bool: ...
    @property
    def round(self) -> Round: ...
    def partial(self) -> Share:
        """The sum so far, as a share (for tree aggregation)."""
    def finish(self) -> Share:
        """The complete aggregate (refused while parties are missing); the aggregator is spent."""

class Flooding:
    """Noise flooding for decryptions that leave the key's owner (IND-CPA-D: Li and Micciancio,
    Eurocrypt 2021; Li, Micciancio, Schultz and Sorrell, Crypto 2022): a discrete Gaussian of
    sigma = 2^(lambda_/2) sqrt(n * decryptions) 2^noise_log2 added to every coefficient of the
    decrypted phase, for ciphertext errors of at most 2^noise_log2 (measure it on a rehearsal under
    a throwaway key: `CkksContext.error_log2`) and `decryptions` decryptions under the key.
    """
    def __init__(
        self, noise_log2: float, degree: Optional[int] = None, *, lambda_: int = 40, decryptions: int = 1
    ) -> None: ...
    @staticmethod
    def with_sigma(sigma: float) -> Flooding:
        """Flooding of a given sigma (1 to 2^1000; what it hides is the caller's to judge)."""
    def sigma_for(self, degree: int) -> float:
        """sigma on a ring of `degree`."""
    @property
    def sigma(self) -> float:
        """sigma (needs the degree: given to the constructor, or a `with_sigma` flooding)."""
    def precision_bits(self, scale_log2: float, degree: int, parties: int = 1) -> float:
        """The bits of precision a CKKS decryption at scale 2^scale_log2 keeps on a ring of `degree`
        after `parties` draws (1 for one key): scale_log2 - log2(sqrt(parties * degree / 2) sigma).
        """
    def scale_log2_for(self, bits: float, degree: int, parties: int = 1) -> float:
        """log2 of the scale that keeps `bits` bits of precision (the inverse of `precision_bits`)."""

class Smudging:
    """The smudging noise of collective decryption and key switching (Gaussian of deviation sigma
    per party), sized for statistical security 2^-lambda over a ciphertext noise of 2^noise_log2.
    """
    def __init__(self, noise_log2: float, degree: int, *, lambda_: int = 40, decryptions: int = 1) -> None: ...
    @staticmethod
    def with_sigma(sigma: float) -> Smudging:
        """Smudging of deviation `sigma` (a share refuses it below the ciphertext's floor unless
        `allow_weak_smudging=True`).
        """
    @staticmethod
    def for_ciphertext(ct: _Ciphertext, *, lambda_: int = 40) -> Smudging:
        """For one decryption of `ct` from the noise bound it carries (BFV, BGV; CKKS: use the
        constructor with a stated bound).
        """
    @property
    def sigma(self) -> float: ...
    def bound_log2(self, parties: int) -> float:
        """log2 of the bound on the sum of `parties` parties' smudging noise."""

class Party:
    """A party: its index and secret share, which never leave the process (no pickling; the secret
    key only through `secret_key()`, whose bytes need `allow_secret=True`).
    """
    def __init__(self, context: _Context, index: int, *, secret_key: Optional[SecretKey] = None,
                 seed: Optional[bytes] = None) -> None: ...
    @property
    def index(self) -> int: ...
    @property
    def group(self) -> Optional[Group]:
        """The threshold group it acts in (None: N-out-of-N)."""
    def join(self, pk: PublicKey) -> None:
        """Records the collective public key its secret is a share of: key switching then refuses
        ciphertexts of other key pairs.
        """
    def secret_key(self) -> SecretKey:
        """The party's secret share as a secret key (for tests: sums of them decrypt)."""

class RelinEphemeral:
    """The ephemeral secret u_i of a party between RKG's two rounds (never leaves the process)."""

class ShamirPolynomial:
    """A party's Shamir polynomial of threshold t (its secret as the constant term; secret)."""
    def share_for(self, crs: Crs, group: Group, recipient: int) -> Share:
        """The Shamir share of this polynomial for party `recipient` of `group` (secret: send its
        bytes only to the recipient).
        """
    @property
    def t(self) -> int: ...

class ThresholdSecret:
    """A party's threshold secret: the sum of the Shamir shares it received (secret)."""
    @staticmethod
    def from_aggregate(context: _Context, crs: Crs, group: Group, aggregate: Share, index: int) -> ThresholdSecret:
        """Party `index`'s threshold secret from the complete aggregate of the Shamir shares it
        received from every member of `group` (refused when it misses any or is of another group).
        """
    @staticmethod
    def from_reshare(context: _Context, crs: Crs, acting: Group, new_group: Group, aggregate: Share,
                     index: int) -> ThresholdSecret:
        """New party `index`'s threshold secret of `new_group` from the complete aggregate of the
        re-sharing shares it received from every member of `acting` (the old parties).
        """
    def combine(self, present: Sequence[int], *, seed: Optional[bytes] = None) -> Party:
        """The party acting among the t or more parties `present` (its share times its Lagrange
        coefficient): its shares of those parties' rounds sum to shares of the collective secret.
        """
    @property
    def index(self) -> int: ...
    @property
    def group(self) -> Group: ...
    def to_bytes(self, *, allow_secret: bool = False) -> bytes:
        """The secret's bytes: refused unless `allow_secret=True`."""
    @staticmethod
    def from_bytes(context: _Context, data: Buffer) -> ThresholdSecret: ...

def ckg_round(context: _Context, crs: Crs, group: Optional[Group] = None) -> Round:
    """The round of CKG."""
def ckg_crp(context: _Context, crs: Crs) -> Crp:
    """The reference polynomial a of CKG under `crs`."""
def rkg_crp(context: _Context, crs: Crs, level: Optional[int] = None) -> Crp:
    """The reference polynomials of RKG for a key at `level` (default: the top) under `crs`."""
def rtg_crp(context: _Context, crs: Crs, elements: Sequence[int], level: Optional[int] = None) -> Crp:
    """The reference polynomials of RTG for Galois `elements` at `level` (default: the top)."""
def ckg_share(party: Party, crs: _Reference) -> Share:
    """The party's CKG share p0_i = -(s_i a + e_i) (`crs`: a `Crs` or its `ckg_crp`)."""
def ckg_public_key(context: _Context, crs: _Reference, aggregate: Share, parties: Sequence[int]) -> PublicKey:
    """The collective public key from the complete CKG aggregate of the shares of `parties` (refused
    when it misses any or sums others'; `crs`: a `Crs` or its `ckg_crp`).
    """
def rkg_round1(context: _Context, crs: Crs, level: Optional[int] = None, group: Optional[Group] = None) -> Round:
    """The first round of RKG at `level` (default: the top)."""
def rkg_round2(round1_aggregate: Share) -> Round:
    """The second round of RKG, bound to the round-1 aggregate."""
def rkg_share_round1(party: Party, crs: _Reference, level: Optional[int] = None) -> Tuple[Share, RelinEphemeral]:
    """The party's RKG round-1 share and its ephemeral secret (keep it for round 2); `crs`: a `Crs`
    or its `rkg_crp` (whose level is the key's: `level`, if given, must agree).
    """
def rkg_share_round2(party: Party, ephemeral: RelinEphemeral, round1_aggregate: Share) -> Share:
    """The party's RKG round-2 share from the round-1 aggregate (refused unless it counts the round-1
    share drawn with `ephemeral`).
    """
def rkg_relin_key(context: _Context, round1_aggregate: Share, round2_aggregate: Share, parties: Sequence[int],
                  pk: PublicKey) -> RelinKey:
    """The collective relinearisation key from RKG's two aggregates of the shares of `parties`,
    registered with the context for the ciphertexts of the collective public key `pk`.
    """
def rtg_round(context: _Context, crs: Crs, elements: Sequence[int], level: Optional[int] = None,
              group: Optional[Group] = None) -> Round:
    """The round of RTG for Galois `elements` at `level` (default: the top)."""
def rtg_share(party: Party, crs: _Reference, elements: Optional[Sequence[int]] = None, level: Optional[int] = None) -> Share:
    """The party's RTG share for Galois `elements` at `level` (default: the top); `crs`: a `Crs`, or
    its `rtg_crp`, which fixes the elements and level (if given, they must agree).
    """
def rtg_galois_keys(context: _Context, crs: _Reference, aggregate: Share, parties: Sequence[int],
                    pk: PublicKey) -> GaloisKeys:
    """The collective Galois keys from the complete RTG aggregate of the shares of `parties`,
    registered with the context (`crs`: a `Crs` or its `rtg_crp`).
    """
def galois_elements(context: _Context, steps: Sequence[int], *, swap: bool = False) -> list[int]:
    """The Galois elements of slot rotations by `steps` (BFV, BGV: rows; CKKS: slots), with the row
    swap (BFV, BGV) or the conjugation (CKKS) if `swap`.
    """
def shamir_polynomial(party: Party, t: int) -> ShamirPolynomial:
    """The party's Shamir polynomial of threshold `t`."""
def shamir_round(context: _Context, crs: Crs, group: Group, recipient: int) -> Round:
    """The round of the Shamir shares for party `recipient` of `group`."""
def reshare_polynomial(secret: ThresholdSecret, present: Sequence[int], new_group: Group) -> ShamirPolynomial:
    """Old party `secret`'s re-sharing polynomial for `new_group` (from `reshared_group`), acting
    among `present` (at least t members of its group, itself among them): its `share_for(crs,
    new_group, k)` goes to each new party k (secret).
    """
def reshare_round(context: _Context, crs: Crs, acting: Group, new_group: Group, recipient: int) -> Round:
    """The round of the re-sharing shares for new party `recipient` of `new_group` from the old
    parties `acting` (`old_group.subgroup(present)`).
    """
def reshared_group(old: Group, crs: Crs, t: int, members: Sequence[int]) -> Group:
    """The group `t` of `members` that a re-sharing of `old`'s secret under `crs` deals to, with a
    new epoch (old and new shares never aggregate together).
    """
def cks_round(context: _Context, crs: Crs, ct: _Ciphertext, group: Optional[Group] = None, *, target: Optional[PublicKey] = None) -> Round:
    """The round of a collective decryption of `ct` (`target`: of a key switch to that collective
    public key's key pair instead).
    """
def noise_bound_log2(ct: _Ciphertext) -> Optional[float]:
    """log2 of the error bound `ct` carries (BFV, BGV), as `Smudging(noise_log2, ...)` and
    `cks_share(..., noise_log2=...)` take it; None for CKKS. A ciphertext read from bytes carries
    the bound its sender wrote: from a sender you do not trust, take this of a twin instead (the
    same circuit on your own encryptions of zero) and state it with `noise_log2=`.
    """
def cks_share(party: Party, ct: _Ciphertext, crs: Crs, smudging: Smudging, *, target: Optional[Party] = None,
              noise_log2: Optional[float] = None, allow_weak_smudging: bool = False) -> Share:
    """The party's share of a collective decryption of `ct` (its secret times c1, plus smudging), or
    of a key switch to the collective key pair of `target` (the party's counterpart there, which
    has joined it): (s_i - s'_i) c1 plus smudging. Refused when the smudging is below what
    lambda = 40 asks for the ciphertext's error bound: the one it carries (BFV, BGV) or
    `noise_log2` (CKKS: state it); `allow_weak_smudging=True` skips the check.
    """
def cks_decrypt(context: _Context, crs: Crs, ct: _Ciphertext, aggregate: Share, parties: Sequence[int],
                smudging: Smudging) -> Union[BfvPlaintext, BgvPlaintext, CkksPlaintext]:
    """The plaintext of `ct` from the complete aggregate of the decryption shares of `parties`."""
def cks_switch(context: _Context, crs: Crs, ct: _Ciphertext, aggregate: Share, parties: Sequence[int],
               target: PublicKey, smudging: Smudging) -> _Ciphertext:
    """`ct` switched to the collective key pair of `target` (its collective public key) from the
    complete aggregate of the key-switch shares of `parties`.
    """
def pcks_round(context: _Context, crs: Crs, ct: _Ciphertext, receiver: PublicKey, group: Optional[Group] = None) -> Round:
    """The round of a public-key switch of `ct` to `receiver`'s public key."""
def pcks_share(party: Party, receiver: PublicKey, ct: _Ciphertext, crs: Crs, smudging: Smudging, *,
               noise_log2: Optional[float] = None, allow_weak_smudging: bool = False) -> Share:
    """The party's share of a public-key switch of `ct` to `receiver`'s public key (its smudging
    checked as `cks_share`'s).
    """
def pcks_switch(context: _Context, crs: Crs, ct: _Ciphertext, aggregate: Share, parties: Sequence[int],
                receiver: PublicKey, smudging: Smudging, receiver_secret: ReceiverSecret) -> _Ciphertext:
    """`ct` re-encrypted under `receiver`'s public key from the complete PCKS aggregate of the
    shares of `parties`; the noise bound assumes `receiver_secret` of the receiver's key pair (its
    public key cannot show it).
    """

class SlotMap:
    """A linear map of the slots applied during a refresh: `rotate(step)`, `automorphism(g)` (every
    scheme), `permute(perm)` and `linear(matrix)` (BFV and BGV: exact modulo t), `complex(matrix)`
    (CKKS).
    """
    @staticmethod
    def rotate(step: int) -> SlotMap:
        """Rotation left by `step` slots (BFV, BGV: both rows, as `rotate_rows`; CKKS: as `rotate`)."""
    @staticmethod
    def automorphism(g: int) -> SlotMap:
        """The automorphism X -> X^g (odd g below 2n): 2n - 1 swaps BFV's and BGV's rows and
        conjugates CKKS's slots.
        """
    @staticmethod
    def permute(perm: Sequence[int]) -> SlotMap:
        """out[i] = in[perm[i]] over the n slots (BFV, BGV)."""
    @staticmethod
    def linear(matrix: Sequence[Sequence[int]]) -> SlotMap:
        """out = matrix @ in modulo t over the n slots (BFV, BGV; an n x n matrix with entries in
        [0, t)).
        """
    @staticmethod
    def complex(matrix: npt.ArrayLike) -> SlotMap:
        """out = matrix @ in over the n' slots of a CKKS ciphertext (an n' x n' complex matrix, n'
        the ciphertext's slots): each share mapped in double-double arithmetic, the result in the
        slots' subring; its error is the matrix applied to the refreshed error.
        """

class Refresh:
    """What the parties of one refresh agree on: for CKKS a bound 2^`values_log2` on the slots'
    modulus (the masks' size follows), the masks' statistical security `lambda_`, and an optional
    `SlotMap` applied on the way. BFV and BGV masks are uniform modulo t: no bound.
    """
    def __init__(self, values_log2: Optional[float] = None, *, lambda_: int = 40,
                 map: Optional[SlotMap] = None) -> None: ...
    @property
    def map(self) -> Optional[SlotMap]:
        """The slot map applied, if any."""
    def mask_bits(self, scale_log2: float, smudging: Smudging, degree: int) -> Optional[int]:
        """The bits of a CKKS mask at a level of scale 2^`scale_log2` under smudging `smudging` on
        degree `degree` (None for BFV and BGV): Q_l needs these plus log2(parties) + 2 bits.
        """

class RefreshCrp:
    """The uniform polynomial a of one refresh, expanded once (public: anyone with the CRS computes
    it); made by `refresh_crp`, it goes where `refresh_share` and `refresh_finalize` take the `Crs`:
    the same shares and ciphertext, without expanding a again.
    """
    @property
    def crs(self) -> Crs:
        """The common reference string it expands."""

def refresh_crp(context: _Context, crs: Crs, ct: _Ciphertext, refresh: Refresh) -> RefreshCrp:
    """The uniform a of the refresh of `ct` with `refresh` under `crs`, expanded once."""
def refresh_round(context: _Context, crs: Crs, ct: _Ciphertext, refresh: Refresh,
                  group: Optional[Group] = None) -> Round:
    """The round of the refresh of `ct` with `refresh` (`group`: the threshold group present)."""
def refresh_share(party: Party, ct: _Ciphertext, crs: Union[Crs, RefreshCrp], refresh: Refresh,
                  smudging: Smudging, *, noise_log2: Optional[float] = None,
                  allow_weak_smudging: bool = False) -> Share:
    """The party's refresh share of `ct`: its secret times c1 minus a fresh mask, with smudging, and
    the mask re-encrypted under its secret at the top level. The smudging is checked as
    `cks_share`'s (the carried bound of BFV and BGV, `noise_log2` for CKKS). `crs`: the `Crs`, or
    the `RefreshCrp` of this refresh (the same share).
    """
def refresh_finalize(context: _Context, crs: Union[Crs, RefreshCrp], ct: _Ciphertext, refresh: Refresh,
                     aggregate: Share, parties: Sequence[int], smudging: Smudging) -> _Ciphertext:
    """The refreshed ciphertext (top level, fresh error; the slot map applied) from the complete
    aggregate of the refresh shares of `parties` (`crs`: the `Crs`, or the `RefreshCrp` of this
    refresh).
    """
def refresh_headroom_log2(ct: _Ciphertext, smudging: Smudging, parties: int) -> Optional[float]:
    """log2 of the room `ct` (BFV, BGV) leaves for a refresh by `parties` parties with `smudging`:
    positive when the refresh goes through; None for CKKS.
    """
def transform_rounds(context_in: _Context, context_out: _Context, crs: Crs, ct: _Ciphertext,
                     refresh: Refresh, target: PublicKey, group: Optional[Group] = None,
                     group_out: Optional[Group] = None) -> tuple[Round, Round]:
    """The two rounds of the transform of `ct` (of `context_in`) with `refresh` to `context_out`'s
    parameters and their collective key `target`: (encryption-to-shares round, aggregated under
    `context_in`; shares-to-encryption round, under `context_out`). `group`, `group_out`: the
    threshold groups present of the input's and output's secrets (`group_out` defaults to `group`).
    """
def transform_share(party_in: Party, party_out: Party, ct: _Ciphertext, crs: Crs, refresh: Refresh,
                    smudging: Smudging, *, noise_log2: Optional[float] = None,
                    allow_weak_smudging: bool = False) -> tuple[Share, Share]:
    """The transform shares of `ct` by one party: `party_in` its secret under the input's context,
    `party_out` its secret under the output's, joined to that context's collective public key.
    Returns (encryption-to-shares share, shares-to-encryption share). The smudging is checked as
    `cks_share`'s (the carried bound of BFV and BGV, `noise_log2` for CKKS).
    """
def transform_finalize(context_in: _Context, context_out: _Context, crs: Crs, ct: _Ciphertext,
                       refresh: Refresh, aggregate_in: Share, aggregate_out: Share,
                       parties: Sequence[int], target: PublicKey,
                       smudging: Smudging) -> _Ciphertext:
    """The transformed ciphertext (a ciphertext of `context_out` at its top level, of the collective
    key `target`, with a fresh error; the slot map applied) from the complete aggregates of the two
    rounds over the transform shares of `parties`.
    """
