"""The platform wheel (``make wheel``, python/setup.py): it bundles the server
binary and (where cgo works) the native library, and the package finds and
runs both where there is no Go.

Builds the wheel once per module with the command ``make wheel`` runs (the
first build compiles the server with -trimpath: minutes on a cold Go cache,
seconds after). Skips where there is no ``go`` or the interpreter's setuptools
is older than 70.1 (``make wheel`` installs a newer one).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = "botarena/bin/botarena"
BUNDLED_LIB = "botarena/lib/libbotarena.so"


def _has_bdist_wheel() -> bool:
    try:
        import setuptools.command.bdist_wheel  # noqa: F401
    except ImportError:
        return False
    return True


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("go") is None, reason="building the wheel needs go on PATH"),
    pytest.mark.skipif(
        not _has_bdist_wheel(), reason="needs setuptools>=70.1 in this interpreter (make wheel installs it)"
    ),
]


def _pip_wheel(out: Path, bundle: bool) -> Path:
    env = dict(os.environ)
    env.pop("BOTARENA_BUNDLE_BINARY", None)
    if bundle:
        env["BOTARENA_BUNDLE_BINARY"] = "1"
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    cmd += ["--disable-pip-version-check", "-w", str(out), str(ROOT / "python")]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    wheels = sorted(out.glob("botarena-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _tags(wheel: Path) -> tuple[str, str, str]:
    python, abi, plat = wheel.name.removesuffix(".whl").split("-")[-3:]
    return python, abi, plat


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _pip_wheel(tmp_path_factory.mktemp("dist"), bundle=True)


@pytest.fixture(scope="module")
def unzipped(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel's files, with their modes restored as pip does."""
    dest = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            path = zf.extract(info, dest)
            mode = info.external_attr >> 16
            if mode & 0o111:
                os.chmod(path, mode & 0o777)
    return dest


def test_wheel_is_platform_specific(wheel: Path) -> None:
    python, abi, plat = _tags(wheel)
    assert (python, abi) == ("py3", "none")
    assert plat != "any"
    if sys.platform.startswith("linux"):
        assert plat == sysconfig.get_platform().replace("-", "_").replace(".", "_")
    with zipfile.ZipFile(wheel) as zf:
        meta = zf.read(f"botarena-{wheel.name.split('-')[1]}.dist-info/WHEEL").decode()
    assert "Root-Is-Purelib: false" in meta
    assert f"Tag: {python}-{abi}-{plat}" in meta


def test_wheel_bundles_binary(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        info = zf.getinfo(BUNDLED)
        record = zf.read(f"botarena-{wheel.name.split('-')[1]}.dist-info/RECORD").decode()
        names = zf.namelist()
    assert info.external_attr >> 16 & 0o111, "the bundled binary is not executable in the wheel"
    assert info.file_size > 1_000_000
    assert any(line.startswith(BUNDLED + ",") for line in record.splitlines())
    assert "botarena/server.py" in names and "botarena/py.typed" in names
    assert not any(n.startswith("botarena-0.1.0.data/") for n in names), "files went to .data/"


def _cgo_works() -> bool:
    out = subprocess.run(["go", "env", "CGO_ENABLED"], capture_output=True, text=True).stdout.strip()
    return out == "1"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the library's file name is the Linux one")
def test_wheel_bundles_native_library(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        record = zf.read(f"botarena-{wheel.name.split('-')[1]}.dist-info/RECORD").decode()
    if not _cgo_works():
        assert BUNDLED_LIB not in names
        pytest.skip("no cgo here: the wheel goes without the native library")
    assert BUNDLED_LIB in names and "botarena/lib/libbotarena.h" in names
    assert any(line.startswith(BUNDLED_LIB + ",") for line in record.splitlines())


def test_bundled_binary_runs(unzipped: Path) -> None:
    proc = subprocess.run([str(unzipped / BUNDLED), "games"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "bomberman" in proc.stdout


_SNIPPET = """
import pathlib, shutil, sys
import botarena, botarena.server

pkg = pathlib.Path(botarena.__file__).resolve().parent
assert pkg == pathlib.Path(sys.argv[1]).resolve() / "botarena", pkg
assert shutil.which("go") is None and botarena.server.repo_root() is None
found = botarena.server.find_binary()
assert pathlib.Path(found) == pkg / "bin" / "botarena", found
with botarena.Server() as server, botarena.Client(server.address) as client:
    names = [g.name for g in client.list_games()]
assert "bomberman" in names, names
print("found", found)
import botarena.native
lib = pkg / "lib" / "libbotarena.so"
if lib.exists():
    assert botarena.native.library_path() == str(lib), botarena.native.library_path()
    with botarena.Pool("battlebots", 2, seed=1) as pool:
        assert type(pool) is botarena.NativePool, type(pool)
        pool.reset()
        pool.step([0] * pool.rows)
    print("native", lib)
"""


def test_installed_wheel_runs_without_go(unzipped: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("BOTARENA_BIN", "BOTARENA_ADDRESS")}
    path = [d for d in env.get("PATH", "").split(os.pathsep) if d and not os.access(os.path.join(d, "go"), os.X_OK)]
    env["PATH"] = os.pathsep.join(path)
    env["PYTHONPATH"] = str(unzipped)
    proc = subprocess.run(
        [sys.executable, "-c", _SNIPPET, str(unzipped)],
        cwd=unzipped,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"found {unzipped.resolve() / BUNDLED}" in proc.stdout
    assert "building" not in proc.stderr
    if (unzipped / BUNDLED_LIB).exists():
        assert f"native {unzipped.resolve() / BUNDLED_LIB}" in proc.stdout


_FALLBACK = """
import botarena
import botarena.pool
with botarena.Pool("battlebots", 2, seed=1, backend="native") as pool:
    assert isinstance(pool, botarena.pool.Pool) and pool.backend == "remote", type(pool)
    pool.reset()
print("remote ok")
"""


def test_pure_wheel_without_go_falls_back_to_remote(tmp_path: Path) -> None:
    """No Go, no C compiler, no bundled library: native asked for explicitly gets the remote backend and one line."""
    import botarena.server

    binary = botarena.server.find_binary()
    wheel = _pip_wheel(tmp_path / "dist", bundle=False)
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    env = {k: v for k, v in os.environ.items() if k not in ("BOTARENA_LIB", "BOTARENA_ADDRESS", "BOTARENA_BACKEND")}
    path = [d for d in env.get("PATH", "").split(os.pathsep) if d and not os.access(os.path.join(d, "go"), os.X_OK)]
    env.update(PATH=os.pathsep.join(path), PYTHONPATH=str(site), BOTARENA_BIN=binary)
    proc = subprocess.run([sys.executable, "-c", _FALLBACK], cwd=site, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "remote ok" in proc.stdout
    lines = [line for line in proc.stderr.splitlines() if "native backend unavailable" in line]
    assert len(lines) == 1 and "using the remote backend" in lines[0], proc.stderr


def test_wheel_without_bundling_is_pure(tmp_path: Path) -> None:
    wheel = _pip_wheel(tmp_path, bundle=False)
    assert _tags(wheel) == ("py3", "none", "any")
    with zipfile.ZipFile(wheel) as zf:
        assert not any(n.startswith("botarena/bin/") for n in zf.namelist())


def test_wheel_declares_the_botarena_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        entry_points = zf.read(f"botarena-{wheel.name.split('-')[1]}.dist-info/entry_points.txt").decode()
    assert "botarena = botarena._cli:main" in entry_points


def test_the_wheels_command_runs_the_bundled_binary_without_go(unzipped: Path) -> None:
    """What the `botarena` command pip installs from the wheel does: the bundled binary, same arguments and status."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOTARENA_BIN",)}
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep) if d and not os.access(os.path.join(d, "go"), os.X_OK)
    )
    env["PYTHONPATH"] = str(unzipped)
    run = [sys.executable, "-c", "import sys; from botarena._cli import main; sys.exit(main())"]
    proc = subprocess.run([*run, "games"], cwd=unzipped, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "bomberman" in proc.stdout and "building" not in proc.stderr
    proc = subprocess.run([*run, "no-such-command"], cwd=unzipped, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "no-such-command" in proc.stderr
