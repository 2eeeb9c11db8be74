"""rnsfhe: full-RNS homomorphic encryption (BFV with BEHZ and HPS, BGV, CKKS) with a Rust core.

Quickstart::

    import numpy as np, rnsfhe
    ctx = rnsfhe.CkksContext(rnsfhe.CkksParameters(degree=8192, levels=2))
    sk, pk = ctx.keygen()
    ctx.relin_key(sk)                      # registered: enables ``*`` and ``**``
    x = ctx.encrypt(np.array([0.5, -1.25, 2.0]), pk)
    y = x * x + 1.0
    print(ctx.decrypt(y, sk)[:3])          # ~ [1.25, 2.5625, 5.0]
"""

from . import errors, io, logistic, multiparty
from ._rnsfhe import (
    FORMAT_VERSION,
    BfvCiphertext,
    BfvContext,
    BfvParameters,
    BfvPlaintext,
    BgvCiphertext,
    BgvContext,
    BgvParameters,
    BgvPlaintext,
    BootstrappingKeys,
    CkksCiphertext,
    CkksContext,
    CkksMatrix,
    CkksMatrixProduct,
    CkksParameters,
    CkksPlaintext,
    Flooding,
    GaloisKeys,
    HprCiphertext,
    HprContext,
    HprGaloisKeys,
    HprParameters,
    HprPlaintext,
    HprPublicKey,
    HprRelinKey,
    HprSecretKey,
    PublicKey,
    RelinKey,
    SecretKey,
    allow_insecure_parameters,
    backend,
    num_threads,
    set_backend,
    set_num_threads,
)
# The version of the workspace's Cargo.toml, compiled into the extension: the one place it is written.
from ._rnsfhe import __version__
from .errors import (
    CiphertextError,
    ContextMismatchError,
    DatasetIntegrityError,
    EntropyError,
    InternalError,
    KeyMismatchError,
    LengthMismatchError,
    LevelMismatchError,
    MissingKeyError,
    NoiseBudgetExhaustedError,
    OutOfRangeError,
    ParameterError,
    RepresentationError,
    RnsfheError,
    ScaleMismatchError,
    SecretKeyExportError,
    SerializationError,
    ShareRefusedError,
)

__all__ = [
    "FORMAT_VERSION",
    "BfvParameters",
    "BfvContext",
    "BfvPlaintext",
    "BfvCiphertext",
    "BgvParameters",
    "BgvContext",
    "BgvPlaintext",
    "BgvCiphertext",
    "CkksParameters",
    "CkksContext",
    "CkksMatrix",
    "CkksMatrixProduct",
    "CkksPlaintext",
    "CkksCiphertext",
    "Flooding",
    "HprParameters",
    "HprContext",
    "HprCiphertext",
    "HprPlaintext",
    "HprSecretKey",
    "HprPublicKey",
    "HprRelinKey",
    "HprGaloisKeys",
    "SecretKey",
    "PublicKey",
    "RelinKey",
    "GaloisKeys",
    "BootstrappingKeys",
    "set_num_threads",
    "num_threads",
    "set_backend",
    "allow_insecure_parameters",
    "backend",
    "errors",
    "io",
    "logistic",
    "multiparty",
    *errors.__all__,
]
