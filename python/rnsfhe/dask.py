"""Encrypted work on a Dask cluster (``pip install "rnsfhe[dask]"``).

The client keeps the secret key: it encrypts, the workers compute with the evaluation keys, the
client decrypts. Evaluation keys reach each worker once, through a ``WorkerPlugin`` (workers that
join or restart later get them too); tasks refer to them through the ciphertexts' key pair.
Ciphertexts and keys pickle with protocol-5 out-of-band buffers, which Dask sends as separate
frames. Example::

    import numpy as np
    from distributed import Client, LocalCluster
    import rnsfhe, rnsfhe.dask as rd

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    ctx = rnsfhe.BfvContext(rnsfhe.BfvParameters(degree=8192, plain_modulus=65537))
    sk, pk = ctx.keygen()
    rd.publish_keys(client, ctx, relin_key=ctx.relin_key(sk))
    cts = rd.encrypt_partitions(client, ctx, np.arange(100_000) % 100, sk)  # seeded uploads
    squares = rd.map_ciphertexts(client, lambda c: c * c, cts)
    total = ctx.decrypt(rd.tree_sum(client, squares).result(), sk)   # per-slot sums mod t
"""

from __future__ import annotations

import functools
import operator
import uuid
from typing import Any, Callable, Iterable, List, Optional

import numpy as np
from distributed import Client, Future
from distributed.diagnostics.plugin import WorkerPlugin

from ._rnsfhe import BootstrappingKeys, GaloisKeys, RelinKey, SecretKey
from .errors import SecretKeyExportError

__all__ = ["EvaluationKeys", "publish_keys", "encrypt_partitions", "map_ciphertexts", "tree_sum"]

# Plugin name -> (context, keys) on a worker: the context registry is weak, so the context and its
# registered keys live as long as the plugin is installed.
_HELD: dict = {}


class EvaluationKeys(WorkerPlugin):
    """Registers a key pair's relinearisation, Galois and/or bootstrapping keys (CKKS) with their
    context on every worker (once per worker, and on workers that join later), so that tasks call
    ``ct.bootstrap()``. A secret key is refused: it never leaves the client. The plugin name is per
    key pair, so publishing a pair's keys again replaces them."""

    def __init__(self, context, *, relin_key: Optional[RelinKey] = None,
                 galois_keys: Optional[GaloisKeys] = None,
                 bootstrapping_keys: Optional[BootstrappingKeys] = None):
        for arg, cls in [(relin_key, RelinKey), (galois_keys, GaloisKeys),
                         (bootstrapping_keys, BootstrappingKeys)]:
            if isinstance(arg, SecretKey):
                raise SecretKeyExportError(
                    "a SecretKey must not be shipped to Dask workers (whoever holds it can decrypt); "
                    "publish the evaluation keys made from it: relin_key=ctx.relin_key(sk), "
                    "galois_keys=ctx.galois_keys(sk, ...)")
            if arg is not None and not isinstance(arg, cls):
                raise TypeError(f"expected a {cls.__name__} or None, got {type(arg).__name__}")
        keys = [k for k in (relin_key, galois_keys, bootstrapping_keys) if k is not None]
        if not keys:
            raise ValueError("publish at least one evaluation key (relin_key=, galois_keys= or "
                             "bootstrapping_keys=)")
        if len({k.key_id for k in keys}) != 1:
            raise ValueError("the keys belong to different key pairs; publish each pair's keys "
                             "separately")
        self.context = context
        self.relin_key = relin_key
        self.galois_keys = galois_keys
        self.bootstrapping_keys = bootstrapping_keys
        self._register()  # checks the context
        self.name = f"rnsfhe-keys-{keys[0].key_id}"

    def _register(self):
        if self.relin_key is not None or self.galois_keys is not None:
            self.context.register_keys(relin_key=self.relin_key, galois_keys=self.galois_keys)
        if self.bootstrapping_keys is not None:
            self.context.register_bootstrapping_keys(self.bootstrapping_keys)

    def setup(self, worker=None):
        self._register()
        _HELD[self.name] = (self.context, self.relin_key, self.galois_keys,
                            self.bootstrapping_keys)

    def teardown(self, worker=None):
        _HELD.pop(self.name, None)


def publish_keys(client: Client, context, *, relin_key: Optional[RelinKey] = None,
                 galois_keys: Optional[GaloisKeys] = None,
                 bootstrapping_keys: Optional[BootstrappingKeys] = None) -> str:
    """Ships evaluation keys to every worker of `client`'s cluster once (an `EvaluationKeys`
    plugin); returns the plugin's name."""
    plugin = EvaluationKeys(context, relin_key=relin_key, galois_keys=galois_keys,
                            bootstrapping_keys=bootstrapping_keys)
    client.register_plugin(plugin)
    return plugin.name


def _identity(x):
    return x


def _sum(*cts):
    return functools.reduce(operator.add, cts)


def _sum_list(cts):
    return _sum(*cts)


def encrypt_partitions(client: Client, context, values, key, *,
                       chunk: Optional[int] = None) -> List[Future]:
    """Encrypts on the client and hands each ciphertext to the cluster: `values` is a 1-D array
    split into chunks of `chunk` (default: the context's slot count) values, or an iterable of
    arrays, one per ciphertext. With the `SecretKey` (which stays on the client) ciphertexts are
    seeded, half the bytes of a public-key encryption. Each ciphertext is the argument of its own
    task, so Dask keeps it and recomputes it if the worker holding it dies (`client.scatter`d data
    would be lost with its worker)."""
    if isinstance(values, (list, tuple)) and values and np.isscalar(values[0]):
        values = np.asarray(values)  # a flat sequence of numbers, not one ciphertext per number
    if isinstance(values, np.ndarray) and values.ndim == 1:
        n = chunk or context.slots
        if n <= 0:
            raise ValueError(f"chunk must be positive, got {n}")
        parts: Iterable[Any] = (values[i:i + n] for i in range(0, len(values), n))
    else:
        parts = values
    token = uuid.uuid4().hex
    return [client.submit(_identity, context.encrypt(part, key), key=f"rnsfhe-ct-{token}-{i}")
            for i, part in enumerate(parts)]


def map_ciphertexts(client: Client, fn: Callable, *iterables, **kwargs) -> List[Future]:
    """`fn` applied on the workers to each ciphertext (or tuple of ciphertexts from several
    iterables of futures, like `map`); keyword arguments go to `Client.map`."""
    return client.map(fn, *iterables, **kwargs)


def tree_sum(client: Optional[Client], items, *, fan_in: int = 8):
    """The sum of ciphertexts as a tree of additions with `fan_in` inputs per task (depth
    log_fan_in(n)): a `Future` for a list of futures, or a delayed item for a Dask bag (then
    `client` may be None). Ring addition is exact, so the result equals the sequential sum."""
    if fan_in < 2:
        raise ValueError(f"fan_in must be at least 2, got {fan_in}")
    if hasattr(items, "reduction") and hasattr(items, "npartitions"):  # a dask.bag.Bag
        return items.reduction(_sum_list, _sum_list, split_every=fan_in)
    level = list(items)
    if not level:
        raise ValueError("tree_sum of no ciphertexts")
    if client is None:
        raise ValueError("tree_sum of futures needs the client")
    while len(level) > 1:
        level = [client.submit(_sum, *level[i:i + fan_in]) for i in range(0, len(level), fan_in)]
    return level[0]
