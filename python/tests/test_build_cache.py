"""The checkout's builds of the server binary and the native library (botarena.server.go_build).

A build is redone only when the module's Go sources change (a content hash kept next to the
output), never for a test, a doc or git's state, and concurrent processes build once (a lock
file). These tests use a tiny module in a temporary folder and a fake ``go`` on PATH that
records each build and sleeps, so they need no Go toolchain and take seconds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from botarena import server

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the fake go is a shell script")

_FAKE_GO = """#!/bin/sh
# A stand-in for go: `go env -json ...` prints a fixed toolchain, `go build ... -o OUT PKG`
# appends its arguments to $FAKE_GO_LOG, sleeps $FAKE_GO_SLEEP seconds and writes OUT.
case "$1" in
env) echo '{"GOVERSION": "go1.99-fake"}' ;;
build)
    out=""; prev=""
    for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done
    echo "$*" >> "$FAKE_GO_LOG"
    sleep "${FAKE_GO_SLEEP:-0}"
    echo "built" > "$out" ;;
*) exit 2 ;;
esac
"""

_BUILD = """
import pathlib, sys
from botarena.server import go_build
print(go_build(pathlib.Path(sys.argv[1]), "./cmd/tiny", pathlib.Path(sys.argv[2]), what="the tiny binary"))
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


@pytest.fixture
def module(tmp_path: Path) -> Path:
    """A tiny Go module: a command, a library with a test, embedded files, docs, testdata, a nested module."""
    root = tmp_path / "mod"
    _write(root / "go.mod", "module example.com/tiny\n\ngo 1.26\n")
    _write(root / "go.sum", "")
    _write(root / "cmd" / "tiny" / "main.go", 'package main\n\nimport "example.com/tiny/lib"\n\nfunc main() { lib.Hello() }\n')
    _write(root / "lib" / "lib.go", "package lib\n\n// Hello says hello.\nfunc Hello() {}\n")
    _write(root / "lib" / "lib_test.go", 'package lib\n\nimport "testing"\n\nfunc TestHello(t *testing.T) { Hello() }\n')
    _write(root / "lib" / "testdata" / "case.txt", "input\n")
    _write(root / "lib" / "README.md", "# lib\n")
    _write(root / "web" / "web.go", 'package web\n\nimport "embed"\n\n//go:embed static\nvar static embed.FS\n')
    _write(root / "web" / "static" / "app.js", "console.log(1)\n")
    _write(root / "tools" / "go.mod", "module example.com/tools\n")
    _write(root / "tools" / "tool.go", "package tools\n")
    _write(root / "_scratch" / "x.go", "package scratch\n")
    _write(root / "native" / "shim.h", "int f(void);\n")
    return root


def test_source_files_are_what_a_build_reads(module: Path) -> None:
    names = [p.relative_to(module).as_posix() for p in server.source_files(module)]
    assert names == ["cmd/tiny/main.go", "go.mod", "go.sum", "lib/lib.go", "native/shim.h", "web/static/app.js", "web/web.go"]


def test_the_hash_changes_with_sources_only(module: Path) -> None:
    base = server.source_hash(module)
    # Not inputs: tests, docs, testdata, a nested module, a folder the go command ignores, new docs.
    for path, text in [
        ("lib/lib_test.go", "package lib\n\n// changed\n"),
        ("lib/README.md", "# changed\n"),
        ("lib/testdata/case.txt", "changed\n"),
        ("tools/tool.go", "package tools\n\n// changed\n"),
        ("_scratch/x.go", "package scratch\n\n// changed\n"),
        ("NOTES.md", "new\n"),
        ("python/thing.py", "x = 1\n"),
    ]:
        _write(module / path, text)
        assert server.source_hash(module) == base, path
    # Touching a source without changing it: same content, same hash.
    os.utime(module / "lib" / "lib.go", (1, 1))
    assert server.source_hash(module) == base
    # Inputs: a Go source, an embedded file, go.sum, a cgo header, a new Go file.
    for path, text in [
        ("lib/lib.go", "package lib\n\n// Hello says hello twice.\nfunc Hello() {}\n"),
        ("web/static/app.js", "console.log(2)\n"),
        ("go.sum", "example.com/x v1.0.0 h1:abc=\n"),
        ("native/shim.h", "int g(void);\n"),
        ("lib/more.go", "package lib\n"),
    ]:
        before = server.source_hash(module)
        _write(module / path, text)
        assert server.source_hash(module) != before, path


def _fake_go(tmp_path: Path, sleep: float) -> dict[str, str]:
    fake = tmp_path / "fakebin"
    fake.mkdir()
    go = fake / "go"
    go.write_text(_FAKE_GO)
    go.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("BOTARENA_QUIET",)}
    env.update(
        PATH=f"{fake}{os.pathsep}{env.get('PATH', '')}",
        FAKE_GO_LOG=str(tmp_path / "builds.log"),
        FAKE_GO_SLEEP=str(sleep),
    )
    return env


def _builds(tmp_path: Path) -> list[str]:
    log = tmp_path / "builds.log"
    return log.read_text().splitlines() if log.exists() else []


def _start(module: Path, target: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _BUILD, str(module), str(target)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _build(module: Path, target: Path, env: dict[str, str]) -> str:
    proc = _start(module, target, env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.strip() == str(target)
    return err


def test_processes_build_once_and_rebuild_only_when_sources_change(module: Path, tmp_path: Path) -> None:
    env = _fake_go(tmp_path, sleep=3)
    target = tmp_path / "cache" / "tiny"

    # Two processes at once: one builds, the other waits for it and uses its output.
    procs = [_start(module, target, env) for _ in range(2)]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in results]
    assert [out.strip() for out, _ in results] == [str(target)] * 2
    builds = _builds(tmp_path)
    assert len(builds) == 1, builds
    assert "-buildvcs=false" in builds[0].split() and builds[0].endswith("./cmd/tiny")
    errs = "".join(err for _, err in results)
    assert errs.count("botarena: building the tiny binary") == 1 and "first use" in errs
    assert target.read_text() == "built\n"
    assert (tmp_path / "cache" / "tiny.sources").is_file()

    # A new process with nothing changed: no build, nothing said.
    env["FAKE_GO_SLEEP"] = "0"
    assert _build(module, target, env) == ""
    # A test, a doc, testdata: still no build.
    _write(module / "lib" / "lib_test.go", "package lib\n\n// another test\n")
    _write(module / "README.md", "# tiny\n")
    _write(module / "lib" / "testdata" / "case.txt", "other\n")
    assert _build(module, target, env) == ""
    assert len(_builds(tmp_path)) == 1

    # A Go source: one build, which says why.
    _write(module / "lib" / "lib.go", "package lib\n\n// Hello says hello.\nfunc Hello() { println() }\n")
    err = _build(module, target, env)
    assert len(_builds(tmp_path)) == 2
    assert "building the tiny binary" in err and "Go sources or the toolchain changed" in err
    assert _build(module, target, env) == ""
    assert len(_builds(tmp_path)) == 2

    # A lost output is rebuilt even though its key is there.
    target.unlink()
    _build(module, target, env)
    assert len(_builds(tmp_path)) == 3 and target.exists()


def test_a_failed_build_raises_and_leaves_no_key(module: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "failbin"
    fake.mkdir()
    go = fake / "go"
    go.write_text('#!/bin/sh\n[ "$1" = env ] && { echo "{}"; exit 0; }\necho "lib/lib.go:3: syntax error" >&2\nexit 1\n')
    go.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("BOTARENA_QUIET", "1")
    target = tmp_path / "cache" / "tiny"
    with pytest.raises(server.ServerError, match="syntax error"):
        server.go_build(module, "./cmd/tiny", target, what="the tiny binary")
    assert not target.exists() and not (tmp_path / "cache" / "tiny.sources").exists()
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["tiny.lock"]  # no temporary file left


def test_the_checkout_hash_is_quick() -> None:
    """The real checkout's sources hash in well under a second (a new process pays this, not a link)."""
    import time

    root = server.repo_root()
    if root is None:
        pytest.skip("not a source checkout")
    start = time.monotonic()
    files = server.source_files(root)
    server.source_hash(root)
    assert time.monotonic() - start < 5.0  # about 0.05 s idle; generous for a loaded machine
    names = {p.relative_to(root).as_posix() for p in files}
    assert "go.mod" in names and "cmd/libbotarena/main.go" in names
    assert not any(n.endswith("_test.go") or n.startswith(("python/", ".git/")) for n in names)
