"""Progress of long Rust calls (bootstrapping key generation, the training showcase): the Rust side
calls a Python callable with (done, total) and takes the GIL back only for that call. A total of
None (a stream of unknown length) shows the count alone; a last call with done == total ends it."""

import sys
import time

__all__ = ["callback", "bar"]


class _StderrBar:
    """A one-line progress display on stderr (when tqdm is not installed)."""

    def __init__(self, desc):
        self.desc = desc
        self.start = time.perf_counter()
        self.last = -1.0

    def __call__(self, done, total):
        now = time.perf_counter()
        finished = total is not None and done >= total
        if not finished and now - self.last < 0.5:
            return
        self.last = now
        end = "\n" if finished else ""
        of = "" if total is None else f"/{total}"
        sys.stderr.write(f"\r{self.desc}: {done}{of} ({now - self.start:.1f} s){end}")
        sys.stderr.flush()


class _TqdmBar:
    """tqdm.auto (a widget in notebooks), created at the first call, when the total is known."""

    def __init__(self, desc, tqdm):
        self.desc = desc
        self.tqdm = tqdm
        self.bar = None

    def __call__(self, done, total):
        if self.bar is None:
            self.bar = self.tqdm(total=total, desc=self.desc)
        self.bar.update(done - self.bar.n)
        if total is not None and done >= total:
            self.bar.close()


def bar(desc):
    """A progress bar called with (done, total): tqdm.auto when importable, else a stderr line."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _StderrBar(desc)
    return _TqdmBar(desc, tqdm)


def callback(progress, desc):
    """What a `progress=` argument means: True or None (the default) a `bar`, False nothing, a
    callable itself (called with (done, total))."""
    if progress is None or progress is True:
        return bar(desc)
    if progress is False:
        return None
    if callable(progress):
        return progress
    raise TypeError(f"progress must be True, False or a callable(done, total), got {progress!r}")
