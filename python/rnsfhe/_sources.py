"""What `rnsfhe.io.write_encrypted` accepts, as a stream of column chunks: a numpy array (1-D: one
column ``values``; 2-D: one column per column), a dict of 1-D arrays, a pandas DataFrame, a Dask
DataFrame (its partitions computed one at a time) or an iterable of any of these."""

from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Optional

import numpy as np

Chunk = Dict[str, np.ndarray]


def _is_dask_dataframe(data) -> bool:
    return type(data).__module__.startswith("dask") and hasattr(data, "to_delayed")


def _is_pandas(data) -> bool:
    return hasattr(data, "columns") and hasattr(data, "to_numpy") and hasattr(data, "iloc")


def known_length(data) -> Optional[int]:
    """The number of records when it is known without reading the data (else None)."""
    if isinstance(data, np.ndarray) or _is_pandas(data) and not _is_dask_dataframe(data):
        return len(data)
    if isinstance(data, dict):
        return len(next(iter(data.values()), ()))
    return None


def _one(data, columns: Optional[List[str]]) -> Chunk:
    if isinstance(data, dict):
        out = {str(c): np.asarray(v) for c, v in data.items()}
    elif _is_pandas(data):
        out = {str(c): data[c].to_numpy() for c in data.columns}
    else:
        a = np.asarray(data)
        if a.ndim == 1:
            out = {(columns or ["values"])[0]: a}
        elif a.ndim == 2:
            names = columns or [f"c{j}" for j in range(a.shape[1])]
            if len(names) != a.shape[1]:
                raise ValueError(f"{len(names)} column names for {a.shape[1]} columns")
            return {names[j]: a[:, j] for j in range(a.shape[1])}
        else:
            raise ValueError(f"a 1-D or 2-D array expected, got {a.ndim} dimensions")
    if columns is not None and not isinstance(data, np.ndarray):
        missing = [c for c in columns if c not in out]
        if missing:
            raise KeyError(f"no column {missing} in the data (it has {list(out)})")
        out = {c: out[c] for c in columns}
    lengths = {len(v) for v in out.values()}
    if len(lengths) > 1:
        raise ValueError(f"columns of different lengths {sorted(lengths)}")
    for c, v in out.items():
        if v.ndim != 1:
            raise ValueError(f"column {c!r} is not 1-D")
    return out


def chunks(data, columns: Optional[List[str]] = None) -> Iterator[Chunk]:
    """`data` as chunks of equal-length columns, the same columns in each."""
    if _is_dask_dataframe(data):
        source: Iterable = (part.compute() for part in data.to_delayed())
    elif isinstance(data, (np.ndarray, dict)) or _is_pandas(data):
        source = [data]
    else:
        source = data
    names = None
    for part in source:
        c = _one(part, columns)
        if names is None:
            names = list(c)
            if not names:
                raise ValueError("no columns to encrypt")
        elif list(c) != names:
            raise ValueError(f"a chunk of columns {list(c)} after chunks of columns {names}")
        yield c


def record_blocks(source: Iterable[Chunk], n: int) -> Iterator[Chunk]:
    """Blocks of exactly `n` records (the last may be shorter) from chunks of any length."""
    pending: List[Chunk] = []
    held = 0
    for c in source:
        size = len(next(iter(c.values())))
        if size == 0:
            continue
        pending.append(c)
        held += size
        if held < n:
            continue
        whole = pending[0] if len(pending) == 1 else {
            k: np.concatenate([p[k] for p in pending]) for k in pending[0]}
        cut = held - held % n
        for s in range(0, cut, n):
            yield {k: v[s:s + n] for k, v in whole.items()}
        pending = [{k: v[cut:] for k, v in whole.items()}] if cut < held else []
        held -= cut
    if held:
        yield {k: np.concatenate([p[k] for p in pending]) for k in pending[0]}
