"""The exceptions rnsfhe raises. Every one derives from :class:`RnsfheError`; most also derive from
the built-in exception a Python user would catch (``ValueError``, ``LookupError``, ``OSError``)."""


class RnsfheError(Exception):
    """Base class of every rnsfhe error."""


class ParameterError(RnsfheError, ValueError):
    """Parameters refused: insecure, inconsistent, unsupported, or a level or depth exhausted."""


class LevelMismatchError(ParameterError):
    """CKKS operands at different levels where one level is needed (bring them together with
    ``drop_to_level``; the operators do it themselves)."""


class ScaleMismatchError(ParameterError):
    """CKKS operands at different scales where one exact scale is needed (the operators align scales
    themselves, spending a level when they must)."""


class OutOfRangeError(RnsfheError, ValueError):
    """A value outside what the operation accepts (e.g. |v| >= t for BFV, NaN or inf for CKKS)."""


class LengthMismatchError(RnsfheError, ValueError):
    """Two lengths that must agree do not (e.g. more values than slots)."""


class ContextMismatchError(RnsfheError, ValueError):
    """Objects of different parameter sets (or levels) used together."""


class KeyMismatchError(ContextMismatchError):
    """Ciphertexts or keys of two different key pairs used together (every key and ciphertext carries
    the identity of its key pair, ``key_id``)."""


class RepresentationError(RnsfheError, ValueError):
    """An operand in the wrong representation."""


class CiphertextError(RnsfheError, ValueError):
    """A ciphertext of the wrong size or shape for the operation (e.g. 3 parts where 2 are needed)."""


class NoiseBudgetExhaustedError(RnsfheError, ArithmeticError):
    """A BFV ciphertext whose noise has grown past what decryption can remove: its plaintext is lost."""


class MissingKeyError(RnsfheError, LookupError):
    """An operation needs a key that was neither passed nor registered with the context."""


class SerializationError(RnsfheError, ValueError):
    """Bytes that cannot be loaded: bad magic, version or kind, truncated, or values out of range."""


class DatasetIntegrityError(SerializationError):
    """An encrypted data set that is not as its manifest says: a file missing, extra or changed, a
    row swapped, moved, dropped or edited, a manifest damaged, or no manifest at all (see
    ``rnsfhe.io``). The message names the file, row group, row and what differs."""


class SecretKeyExportError(RnsfheError, PermissionError):
    """A secret key asked to leave the process (``to_bytes()`` or pickling) without
    ``allow_secret=True``."""


class InternalError(RnsfheError, RuntimeError):
    """A broken internal invariant of rnsfhe (a bug, never the caller's input): please report it."""


class EntropyError(RnsfheError, OSError):
    """The operating system's random source failed."""


class ShareRefusedError(RnsfheError, ValueError):
    """A multiparty share refused by an aggregator or a protocol step: duplicated, stale (another
    round, session, instance, input or group), corrupted, foreign (another parameter set), from an
    unexpected party, missing (an aggregate without an expected party's share), or substituted
    (an aggregate that counts another share for a party than the one it sent). ``share`` names
    it, ``fault`` is one of ``"duplicate"``, ``"stale"``, ``"corrupted"``, ``"foreign"``,
    ``"unexpected"``, ``"missing"``, ``"substituted"``, and ``detail`` says why."""

    share: str = ""
    fault: str = ""
    detail: str = ""


__all__ = [
    "RnsfheError",
    "ParameterError",
    "LevelMismatchError",
    "ScaleMismatchError",
    "OutOfRangeError",
    "LengthMismatchError",
    "ContextMismatchError",
    "KeyMismatchError",
    "RepresentationError",
    "CiphertextError",
    "MissingKeyError",
    "NoiseBudgetExhaustedError",
    "SerializationError",
    "DatasetIntegrityError",
    "SecretKeyExportError",
    "EntropyError",
    "InternalError",
    "ShareRefusedError",
]
