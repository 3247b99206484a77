"""droidflame: Android traces (method traces, atrace/systrace, Perfetto, simpleperf, heap
profiles) analysed on this machine by the same core as the droidflame CLI and page, with
the results as pyarrow tables.

    import droidflame
    profile = droidflame.analyze("startup.trace")
    profile.methods().sort_by([("excl_wall_us", "descending")]).slice(0, 10)
    droidflame.compare_runs(before_paths, after_paths)  # many runs, with statistics

Profiles and tables pickle, so the same calls run in the worker processes of Dask, Ray or
Spark.
"""

import os

import pyarrow

from . import _native
from ._native import DroidflameError

__all__ = ["analyze", "compare_runs", "Profile", "DroidflameError"]


def _table(batch):
    return pyarrow.Table.from_batches([pyarrow.record_batch(batch)])


def _bytes_of(path_or_bytes, what):
    """The bytes and the name to give them in errors."""
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        return bytes(path_or_bytes), what
    path = os.fspath(path_or_bytes)
    with open(path, "rb") as f:
        return f.read(), str(path)


class Profile:
    """One analysed trace. Its tables use the field names of the CLI's summary JSON."""

    def __init__(self, data, label, clock=None, mapping=None, source=None):
        self._args = (data, label, clock, mapping, source)
        self._native = _native.analyze(data, label, clock=clock, mapping=mapping, source=source)

    def __reduce__(self):
        # A profile travels as its trace and options, and is analysed again where it lands.
        return (Profile, self._args)

    def __repr__(self):
        return f"<droidflame.Profile {self._args[1]}>"

    def summary(self):
        """The summary JSON as a dict (`droidflame summary`)."""
        import json

        return json.loads(self._native.summary_json())

    def threads(self):
        """One row per thread: tid, name, records, wall_us, cpu_us, max_depth, pid, process."""
        return _table(self._native.threads())

    def methods(self):
        """One row per method (or slice) with calls: name, class, method, signature, source,
        calls, recursive_calls, incl_wall_us, excl_wall_us, incl_cpu_us, excl_cpu_us (null for
        a clock the trace lacks)."""
        return _table(self._native.methods())

    def calls(self):
        """Every call, as `droidflame calls` lists them: tid, depth, start_us, end_us,
        wall_us, cpu_us, frame (dictionary-encoded)."""
        return _table(self._native.calls())

    def folded(self, thread=None):
        """Folded stacks: stack (`frame;frame;...`, the thread `name [tid]` first unless
        `thread` picks one), value (self time in µs)."""
        return _table(self._native.folded(thread))


def analyze(path_or_bytes, clock=None, mapping=None, source=None):
    """Analyses a trace given as a path or as bytes. `clock`: "wall" or "cpu" for folded
    stacks (default: the trace's); `mapping`: an R8/ProGuard mapping.txt (path or bytes);
    `source`: which stack data to read ("calls", "cpu-samples", "heap-unreleased",
    "heap-allocated"). Raises DroidflameError with the CLI's message for a bad trace."""
    data, label = _bytes_of(path_or_bytes, "trace")
    if mapping is not None:
        mapping, _ = _bytes_of(mapping, "mapping")
    return Profile(data, label, clock=clock, mapping=mapping, source=source)


def compare_runs(before, after, alpha=0.05, share=False, clock=None, thread=None, mapping=None, source=None):
    """Two groups of runs of one scenario (lists of paths or bytes) compared per method:
    each side's medians and quartiles, a two-sided Mann-Whitney U test per method, its
    Benjamini-Hochberg q-value and whether the change is significant at false-discovery rate
    `alpha`; significant rows first, largest change first. `share`: test each run's share
    of its threads' time instead of µs. The columns are `droidflame diff --before ... --after
    ... --format methods`'s, as numbers."""
    if mapping is not None:
        mapping, _ = _bytes_of(mapping, "mapping")
    batch = _native.compare_runs(
        list(before), list(after), alpha=alpha, share=share, clock=clock, thread=thread, mapping=mapping, source=source
    )
    return _table(batch)
