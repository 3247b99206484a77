"""A heap dump's tables equal what `droidflame heap ...` prints for the same dump."""

import pickle

import droidflame

BINDER = "hprof/leakcanary-leak_service_binder.hprof"
IGNORED = "hprof/leakcanary-leak_service_binder_ignored.hprof"


def _rows(text):
    lines = text.strip().split("\n")
    header = lines[0].split("\t")
    return header, [line.split("\t") for line in lines[1:]]


def _number(cell):
    if cell == "root":
        return None
    return int(cell, 16) if cell.startswith("0x") else int(cell) if cell.isdigit() else cell


def _as_cli(table):
    return [[_number(str(v)) if not isinstance(v, (int, type(None))) else v for v in row.values()] for row in table.to_pylist()]


def test_classes_objects_and_leaks_equal_the_cli(corpus, cli):
    path = corpus / BINDER
    dump = droidflame.analyze(path)
    for args, table in [
        (("classes",), dump.classes()),
        (("classes", "--heap", "app"), dump.classes(heap="app")),
        (("objects", "--top", "25"), dump.objects(top=25)),
        (("objects", "--class", "java.lang.String", "--top", "5"), dump.objects(top=5, class_name="java.lang.String")),
        (("leaks",), dump.leaks()),
        (("leaks", "--grouped"), dump.leaks(grouped=True)),
        (("duplicates",), dump.duplicates()),
    ]:
        header, rows = _rows(cli("heap", *args[:1], path, *args[1:]).stdout)
        assert table.column_names == header, args
        assert _as_cli(table) == [[_number(c) for c in row] for row in rows], args
    leak = dump.leaks().to_pylist()
    assert [(r["id"], r["reason"]) for r in leak] == [(0xB0FA7CB0, "watched")]


def test_compare_dumps_equals_heap_diff_and_dumps_pickle(corpus, cli):
    before, after = corpus / BINDER, corpus / IGNORED
    header, rows = _rows(cli("heap", "diff", before, after).stdout)
    table = droidflame.compare_dumps(before, after)
    assert table.column_names == header
    assert _as_cli(table) == [[_number(c) for c in row] for row in rows]
    dump = pickle.loads(pickle.dumps(droidflame.analyze(before)))
    assert droidflame.compare_dumps(dump, after).equals(table)


def test_a_trace_is_no_heap_dump(corpus):
    profile = droidflame.analyze(corpus / "ffprof-art-regular.trace")
    try:
        profile.classes()
    except droidflame.DroidflameError as e:
        assert "this is no heap dump" in str(e)
    else:
        raise AssertionError("a method trace gave a class table")


def test_a_series_has_the_cli_s_columns_and_needs_three_dumps(corpus, cli):
    dumps = [corpus / IGNORED, corpus / BINDER, corpus / BINDER]
    table = droidflame.dump_series(dumps)
    header, rows = _rows(cli("heap", "series", *dumps).stdout)
    assert table.column_names == header
    # Two of the three dumps are one file: nothing grows at every step.
    assert (table.num_rows, rows) == (0, [])
    try:
        droidflame.dump_series(dumps[:2])
    except droidflame.DroidflameError as error:
        assert "3 dumps or more" in str(error)
    else:
        raise AssertionError("two dumps make no series")
