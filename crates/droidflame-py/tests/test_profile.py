"""A profile's tables equal what the CLI prints for the same trace."""

import json
import pickle

import pyarrow
import pytest

import droidflame

TRACES = ["ffprof-art-regular.trace", "toolsbase-streaming.trace", "simpleperf/ffprof-simpleperf-cpu-clock.trace"]


@pytest.mark.parametrize("name", TRACES)
def test_threads_and_methods_equal_the_clis_summary(corpus, cli, name):
    path = corpus / name
    summary = json.loads(cli("summary", path).stdout)
    profile = droidflame.analyze(path)
    threads = profile.threads().to_pylist()
    assert len(threads) == len(summary["threads"])
    for row, expected in zip(threads, summary["threads"]):
        for key in ("tid", "name", "records", "wall_us", "cpu_us", "max_depth"):
            assert row[key] == expected[key], (key, row, expected)
    methods = profile.methods()
    assert methods.num_rows == len(summary["methods"])
    for row, expected in zip(methods.to_pylist(), summary["methods"]):
        assert row == {key: expected.get(key) for key in row}, row["name"]
    assert profile.summary()["threads"] == summary["threads"]


def test_bytes_and_path_give_the_same_tables(corpus):
    path = corpus / "ffprof-art-regular.trace"
    from_path = droidflame.analyze(path)
    from_bytes = droidflame.analyze(path.read_bytes())
    for table in ("threads", "methods", "folded"):
        assert getattr(from_path, table)().equals(getattr(from_bytes, table)())


def test_calls_equal_the_clis_listing(corpus, cli):
    path = corpus / "ffprof-art-regular.trace"
    calls = droidflame.analyze(path).calls()
    assert pyarrow.types.is_dictionary(calls.schema.field("frame").type)
    lines = cli("calls", path).stdout.splitlines()
    assert calls.num_rows == len(lines) > 1000
    columns = calls.to_pydict()
    for i in (0, 1, len(lines) // 2, len(lines) - 1):
        tid, depth, start, end, wall, cpu, frame = lines[i].split("\t")
        row = (columns["tid"][i], columns["depth"][i], columns["start_us"][i], columns["end_us"][i])
        assert row == (int(tid), int(depth), int(start), int(end))
        assert columns["wall_us"][i] == (int(wall) if wall else None)
        assert columns["cpu_us"][i] == (int(cpu) if cpu else None)
        assert columns["frame"][i] == frame


def test_folded_equals_the_clis_and_takes_the_clock_and_a_thread(corpus, cli):
    path = corpus / "ffprof-art-regular.trace"
    for clock in (None, "cpu"):
        args = ["folded", path] + (["--clock", clock] if clock else [])
        expected = [line.rsplit(" ", 1) for line in cli(*args).stdout.splitlines()]
        folded = droidflame.analyze(path, clock=clock).folded().to_pydict()
        assert list(zip(folded["stack"], map(str, folded["value"]))) == [tuple(e) for e in expected]
    tid = droidflame.analyze(path).threads().column("tid")[0].as_py()
    one = droidflame.analyze(path).folded(thread=tid).to_pydict()
    expected = [line.rsplit(" ", 1)[0] for line in cli("folded", path, "--thread", tid).stdout.splitlines()]
    assert one["stack"] == expected


def test_a_heap_source_and_a_mapping_are_read_as_the_cli_reads_them(corpus, cli):
    heap = corpus / "perfetto" / "toolsbase-tpd-empty_sched_table.trace"
    allocated = droidflame.analyze(heap, source="heap-allocated").folded()
    assert sum(allocated.column("value").to_pylist()) == 428_480
    assert sum(droidflame.analyze(heap).folded().column("value").to_pylist()) == 425_840
    with pytest.raises(droidflame.DroidflameError, match="no cpu-samples source"):
        droidflame.analyze(heap, source="cpu-samples")


def test_bad_input_raises_the_clis_message(cli, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("just some notes\n")
    said = cli("summary", bad, check=False).stderr.strip()
    with pytest.raises(droidflame.DroidflameError) as raised:
        droidflame.analyze(bad)
    assert said == f"droidflame: {raised.value}"
    assert isinstance(raised.value, ValueError)
    with pytest.raises(droidflame.DroidflameError, match='clock "sundial"'):
        droidflame.analyze(bad.read_bytes(), clock="sundial")
    with pytest.raises(FileNotFoundError):
        droidflame.analyze(tmp_path / "missing.trace")


def test_profiles_and_tables_pickle(corpus):
    profile = droidflame.analyze(corpus / "ffprof-art-regular.trace", clock="cpu")
    again = pickle.loads(pickle.dumps(profile))
    assert again.folded().equals(profile.folded())
    table = profile.methods()
    assert pickle.loads(pickle.dumps(table)).equals(table)


def test_tables_of_many_traces_concatenate(corpus):
    tables = [droidflame.analyze(corpus / name).methods() for name in TRACES]
    assert pyarrow.concat_tables(tables).num_rows == sum(t.num_rows for t in tables)
