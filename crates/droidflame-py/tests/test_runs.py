"""compare_runs agrees with `droidflame diff --before ... --after ... --format methods`."""

import pytest

import droidflame
from conftest import runs_of

SLOWED = "com.example.feed.Part2.step17"


def test_the_slowed_method_is_significant_and_the_cli_agrees(runs_dir, cli):
    before, after = runs_of(runs_dir, "before"), runs_of(runs_dir, "after")
    assert len(before) == len(after) == 10
    table = droidflame.compare_runs(before, after)
    rows = table.to_pylist()
    first = [r["method"] for r in rows[:3]]
    assert SLOWED in first
    slowed = next(r for r in rows if r["method"] == SLOWED)
    assert slowed["significant"] and slowed["verdict"] == "slower"
    assert sum(r["significant"] for r in rows) <= 2
    lines = cli("diff", "--before", *before, "--after", *after, "--format", "methods").stdout.splitlines()
    header = lines[0].split("\t")
    assert header == table.column_names
    for line, row in zip(lines[1:], rows):
        cells = dict(zip(header, line.split("\t")))
        assert cells["method"] == row["method"]
        assert cells["significant"] == ("yes" if row["significant"] else "no")
        assert float(cells["excl_median_before_us"]) == pytest.approx(row["excl_median_before_us"], abs=0.01)
        assert float(cells["excl_median_after_us"]) == pytest.approx(row["excl_median_after_us"], abs=0.01)
        assert float(cells["p_value"]) == pytest.approx(row["p_value"], rel=0.01)
        # The change as an effect, typed: the ratio a number (None where before's median is 0).
        assert (cells["ratio"] == "-") == (row["ratio"] is None)
        if row["ratio"] is not None:
            assert float(cells["ratio"]) == pytest.approx(row["ratio"], rel=0.01)
        for column in ("shift_us", "shift_low_us", "shift_high_us"):
            assert float(cells[column]) == pytest.approx(row[column], abs=0.01)
        assert (cells["verdict"], cells["evidence"]) == (row["verdict"], row["evidence"])
        assert cells["every_run"] == ("yes" if row["every_run"] else "no")
    assert slowed["evidence"] == "corrected test" and slowed["shift_low_us"] > 0


def test_runs_given_as_bytes_and_shares(runs_dir):
    before, after = runs_of(runs_dir, "before"), runs_of(runs_dir, "after")
    as_bytes = droidflame.compare_runs([open(p, "rb").read() for p in before], after, share=True)
    slowed = next(r for r in as_bytes.to_pylist() if r["method"] == SLOWED)
    assert slowed["significant"]
    assert slowed["excl_share_after_pct"] > slowed["excl_share_before_pct"]


def test_groups_that_cannot_be_compared_raise_the_reason(runs_dir):
    before = runs_of(runs_dir, "before")
    with pytest.raises(droidflame.DroidflameError, match="the after group has no runs"):
        droidflame.compare_runs(before, [])
    with pytest.raises(droidflame.DroidflameError, match='no run has a thread named "RenderThread"'):
        droidflame.compare_runs(before, before, thread="RenderThread")
    with pytest.raises(droidflame.DroidflameError, match="before run 1: not an Android trace"):
        droidflame.compare_runs([b"nothing"], before)
