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

__all__ = ["analyze", "compare_runs", "compare_dumps", "dump_series", "Profile", "DroidflameError"]


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

    def classes(self, heap=None):
        """A heap dump's classes with a strongly reachable instance (in heap `heap`, e.g.
        "app"): class, count, shallow, retained (bytes), largest retained first, as
        `droidflame heap classes` prints them."""
        return _table(self._native.classes(heap))

    def objects(self, top=None, class_name=None, heap=None):
        """A heap dump's strongly reachable objects, largest retained first: id, class,
        heap, shallow, retained, dominator (the immediate dominator's id; null where only
        the GC roots together dominate it)."""
        return _table(self._native.objects(top, class_name, heap))

    def leaks(self, grouped=False):
        """A heap dump's leaks (watched by LeakCanary, destroyed activities, detached
        fragments): id, class, retained, reason, path; `grouped`: one row per path with
        its count instead of id."""
        return _table(self._native.leaks(grouped))

    def duplicates(self):
        """A heap dump's copies: strings of equal text and primitive arrays of equal
        contents, one row per group (kind, class, count, bytes of one copy, wasted by all but
        one, example id, preview), the most bytes wasted first, as `droidflame heap
        duplicates` prints them."""
        return _table(self._native.duplicates())


def analyze(path_or_bytes, clock=None, mapping=None, source=None):
    """Analyses a trace given as a path or as bytes. `clock`: "wall" or "cpu" for folded
    stacks (default: the trace's); `mapping`: an R8/ProGuard mapping.txt (path or bytes);
    `source`: which stack data to read ("calls", "cpu-samples", "heap-unreleased",
    "heap-allocated", "heap-dominators", "heap-paths"). Raises DroidflameError with the CLI's message for a bad trace."""
    data, label = _bytes_of(path_or_bytes, "trace")
    if mapping is not None:
        mapping, _ = _bytes_of(mapping, "mapping")
    return Profile(data, label, clock=clock, mapping=mapping, source=source)


def compare_dumps(before, after, mapping=None):
    """Two heap dumps (paths, bytes or Profiles) class by class: class, count, shallow and
    retained bytes before and after, the largest change of retained bytes first, as
    `droidflame heap diff` prints them."""
    before, after = (p if isinstance(p, Profile) else analyze(p, mapping=mapping) for p in (before, after))
    return _table(before._native.compare_dump(after._native))


def dump_series(dumps, paths=False, mapping=None):
    """Three heap dumps or more (paths, bytes or Profiles), taken after each repetition of a
    scenario: the classes (or, `paths`, the paths from the GC roots) whose count grows at
    every step, with a column per dump of counts and bytes and what each step adds, as
    `droidflame heap series` prints them."""
    dumps = [p if isinstance(p, Profile) else analyze(p, mapping=mapping) for p in dumps]
    return _table(_native.dump_series([d._native for d in dumps], paths))


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
