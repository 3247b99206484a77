"""The Dask example on a LocalCluster of worker processes: its per-method totals equal the
sums of the CLI's summaries of the same traces."""

import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import dask_methods  # noqa: E402

from conftest import runs_of  # noqa: E402


def test_totals_on_worker_processes_equal_the_clis(runs_dir, cli):
    distributed = pytest.importorskip("dask.distributed")
    paths = runs_of(runs_dir, "before") + runs_of(runs_dir, "after")
    expected = {}
    for path in paths:
        for m in json.loads(cli("summary", path).stdout)["methods"]:
            calls, excl = expected.get(m["name"], (0, 0))
            expected[m["name"]] = (calls + m["calls"], excl + m["excl_wall_us"])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            totals = dask_methods.per_method_totals(paths, client, batch=3)
            # The work ran in the workers' processes, not here.
            assert len(client.run(lambda: 1)) == 2
    got = {r["name"]: (r["calls"], r["excl_wall_us"]) for r in totals.to_pylist()}
    assert got == expected
    assert totals.column("traces").to_pylist() == [len(paths)] * totals.num_rows
    # The same function without a cluster gives the same table.
    alone = dask_methods.per_method_totals(paths, None, batch=7)
    assert alone.sort_by("name").equals(totals.sort_by("name"))
