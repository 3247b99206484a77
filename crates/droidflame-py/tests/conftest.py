"""What the tests share: the droidflame CLI to compare with, the trace corpus, and a
directory of runs (ten a side, one method made slower) that `cargo xtask test` writes."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _corpus():
    given = os.environ.get("DROIDFLAME_TRACES")
    return pathlib.Path(given) if given else ROOT.parent / "shared" / "traces"


CORPUS = _corpus()


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        if os.environ.get("DROIDFLAME_REQUIRE_CORPUS"):
            pytest.fail(f"the trace corpus is missing at {CORPUS}")
        pytest.skip("the trace corpus (../shared/traces) is missing")
    return CORPUS


@pytest.fixture(scope="session")
def cli():
    """Runs the droidflame CLI (DROIDFLAME_CLI, else the workspace's debug build)."""
    binary = os.environ.get("DROIDFLAME_CLI") or str(ROOT / "target" / "debug" / "droidflame")
    if not os.path.exists(binary):
        subprocess.run(["cargo", "build", "-q", "-p", "droidflame-cli"], cwd=ROOT, check=True)

    def run(*args, check=True):
        done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"droidflame {args}: {done.stderr}")
        return done

    return run


@pytest.fixture(scope="session")
def runs_dir(tmp_path_factory):
    """Ten runs a side of the testkit's program, after's slowed method 1.3 times slower."""
    given = os.environ.get("DROIDFLAME_RUNS_DIR")
    if given:
        return pathlib.Path(given)
    out = tmp_path_factory.mktemp("runs")
    subprocess.run(
        ["cargo", "run", "-q", "-p", "droidflame-testkit", "--bin", "write-runs", "--", str(out), "10", "1.3"],
        cwd=ROOT,
        check=True,
    )
    return out


def runs_of(directory, side):
    return sorted(str(p) for p in pathlib.Path(directory).glob(f"{side}-*.trace"))
