"""Per-method totals over a directory of traces, on Dask distributed.

Each task analyses a batch of traces in a worker process and sums its methods; the partial
sums are added at the end. The same code runs on a laptop's LocalCluster and on a real
cluster (give `--scheduler ADDRESS`): only the paths must be readable by the workers.

    python dask_methods.py TRACES_DIR [--workers 2] [--batch 50] [--top 20]
    python dask_methods.py TRACES_DIR --workers 0     # one process, no Dask: to compare
"""

import argparse
import pathlib
import time

import pyarrow

import droidflame

SUMMED = ["calls", "incl_wall_us", "excl_wall_us", "incl_cpu_us", "excl_cpu_us"]


def sum_by_method(tables):
    """One row per method name: each column of SUMMED added up, and in how many traces."""
    columns = SUMMED + ["traces"]
    summed = pyarrow.concat_tables(tables).group_by("name").aggregate([(c, "sum") for c in columns])
    return summed.select(["name"] + [f"{c}_sum" for c in columns]).rename_columns(["name"] + columns)


def methods_of_batch(paths):
    """The per-trace analysis, for a batch of traces: runs in a worker process."""
    tables = []
    for path in paths:
        methods = droidflame.analyze(path).methods().select(["name"] + SUMMED)
        tables.append(methods.append_column("traces", pyarrow.array([1] * methods.num_rows, pyarrow.int64())))
    return sum_by_method(tables)


def batches(paths, size):
    return [paths[i : i + size] for i in range(0, len(paths), size)]


def per_method_totals(paths, client=None, batch=50):
    """Per-method sums over `paths`; on `client`'s cluster, or in this process without one."""
    if client is None:
        return sum_by_method([methods_of_batch(b) for b in batches(paths, batch)])
    partial = client.map(methods_of_batch, batches(paths, batch))
    return client.submit(sum_by_method, partial).result()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("traces", type=pathlib.Path)
    parser.add_argument("--workers", type=int, default=2, help="worker processes of a LocalCluster; 0: no Dask")
    parser.add_argument("--scheduler", help="the address of an existing Dask scheduler")
    parser.add_argument("--batch", type=int, default=50, help="traces per task")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    paths = sorted(str(p) for p in args.traces.iterdir() if p.is_file())
    client = None
    if args.scheduler or args.workers:
        import dask
        from dask.distributed import Client, LocalCluster

        # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc give
        # memory back at every large free: the analysis of a 6 MB trace then takes half as
        # long again. A real cluster's configuration should say the same.
        dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})
        cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(args.scheduler or cluster)
        # Workers import droidflame and pyarrow once, before the clock starts, as a
        # long-running cluster has.
        client.run(lambda: __import__("droidflame") and None)
    start = time.perf_counter()
    totals = per_method_totals(paths, client, args.batch)
    seconds = time.perf_counter() - start
    top = totals.sort_by([("excl_wall_us", "descending")]).slice(0, args.top)
    for row in top.to_pylist():
        print(f"{row['excl_wall_us']:>14,} µs  {row['calls']:>10,} calls  {row['traces']:>6} traces  {row['name']}")
    where = f"{args.workers} worker processes" if client and not args.scheduler else ("the cluster" if client else "one process")
    print(f"{len(paths)} traces in {seconds:.2f} s on {where}")


if __name__ == "__main__":
    main()
