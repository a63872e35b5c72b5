"""The wheel build step that bundles the botarena server binary and native library.

pyproject.toml holds the metadata; this file only adds one optional build
step. With ``BOTARENA_BUNDLE_BINARY=1`` in the environment, ``bdist_wheel``
(``pip wheel``, ``python -m build --wheel``, ``make wheel``) runs, from the
repository root (the directory above python/)::

    CGO_ENABLED=0 go build -v -trimpath -ldflags=-s -o <build_lib>/botarena/bin/botarena ./cmd/botarena
    CGO_ENABLED=1 go build -v -trimpath -ldflags=-s -buildmode=c-shared \
        -o <build_lib>/botarena/lib/libbotarena.so ./cmd/libbotarena

and tags the wheel ``py3-none-<platform>`` (the files are for the building
machine's platform; they do not depend on the Python version). The binary is
static (cgo off, unless CGO_ENABLED is set), so the wheel runs where there is
no Go toolchain; ``botarena.server.find_binary`` finds it next to the
package. The shared library is the native backend (``botarena.native``,
``Pool(..., backend="native")``); it needs cgo, so where the building machine
has no C compiler the wheel is built without it, saying so, and its users
get the remote backend. ``BOTARENA_BUNDLE_LIB=0`` leaves the library out,
``=1`` makes a missing C compiler an error.

Without the variable (or with it set to 0) nothing is built and the wheel is
pure Python (``py3-none-any``), as before. An editable install
(``pip install -e python``) never builds or bundles anything, whatever the
variable says: setuptools' ``editable_wheel`` does not run ``bdist_wheel``.
"""

from __future__ import annotations

import os
import pathlib
import runpy
import shutil
import subprocess
import sys
import time

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

_BUNDLED = ("botarena", "bin", "botarena")
_LIB = {"darwin": "libbotarena.dylib", "win32": "botarena.dll"}.get(sys.platform, "libbotarena.so")
_BUNDLED_LIB = ("botarena", "lib", _LIB)
_BUNDLED_HEADER = ("botarena", "lib", "libbotarena.h")


def _bundle_requested() -> bool:
    return os.environ.get("BOTARENA_BUNDLE_BINARY", "") not in ("", "0")


class BotarenaDistribution(Distribution):
    """Reports extension modules while a bundling bdist_wheel runs, so that
    the build and install steps use the platform-specific (platlib) layout."""

    bundle_binary = False

    def has_ext_modules(self) -> bool:
        return self.bundle_binary or super().has_ext_modules()


class BundlingBdistWheel(bdist_wheel):
    """bdist_wheel that, with BOTARENA_BUNDLE_BINARY=1, bundles the binary.

    The decision is made in run(), which only a real wheel build reaches;
    editable installs use this command's get_tag but never its run.
    """

    def run(self) -> None:
        if _bundle_requested():
            self.distribution.bundle_binary = True
            self.root_is_pure = False
        super().run()

    def get_tag(self) -> tuple[str, str, str]:
        if not getattr(self.distribution, "bundle_binary", False):
            return super().get_tag()
        _, _, plat = super().get_tag()
        return "py3", "none", plat


class BundlingBuildPy(build_py):
    """build_py that adds botarena/bin/botarena when a wheel bundles it, and
    otherwise removes one a previous bundling build left in build_lib."""

    def run(self) -> None:
        super().run()
        target = pathlib.Path(self.build_lib, *_BUNDLED).resolve()
        lib = pathlib.Path(self.build_lib, *_BUNDLED_LIB).resolve()
        if getattr(self, "editable_mode", False):
            return
        if getattr(self.distribution, "bundle_binary", False):
            self._go_build(target, "./cmd/botarena", cgo=False)
            self._bundle_library(lib)
        else:
            for path in (target, lib, pathlib.Path(self.build_lib, *_BUNDLED_HEADER)):
                if path.exists():
                    path.unlink()

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if getattr(self.distribution, "bundle_binary", False):
            outputs.append(os.path.join(self.build_lib, *_BUNDLED))
            for parts in (_BUNDLED_LIB, _BUNDLED_HEADER):
                if os.path.exists(os.path.join(self.build_lib, *parts)):
                    outputs.append(os.path.join(self.build_lib, *parts))
        return outputs

    def _bundle_library(self, lib: pathlib.Path) -> None:
        """Builds the native library into lib, or says why the wheel goes without it."""
        want = os.environ.get("BOTARENA_BUNDLE_LIB", "")
        for path in (lib, lib.with_name("libbotarena.h")):
            if path.exists():
                path.unlink()
        if want == "0":
            print("botarena: BOTARENA_BUNDLE_LIB=0: the wheel has no native library", file=sys.stderr, flush=True)
            return
        problem = _cgo_problem()
        if problem is not None:
            if want == "1":
                sys.exit(f"BOTARENA_BUNDLE_LIB=1 but the native library cannot be built: {problem}")
            print(
                f"botarena: not bundling the native library ({problem}); the wheel's users get the remote backend",
                file=sys.stderr,
                flush=True,
            )
            return
        self._go_build(lib, "./cmd/libbotarena", cgo=True)

    def _go_build(self, target: pathlib.Path, package: str, *, cgo: bool) -> None:
        root = pathlib.Path(__file__).resolve().parent.parent
        if not (root / "go.mod").is_file() or not (root / package).is_dir():
            sys.exit(
                f"BOTARENA_BUNDLE_BINARY is set but {root} is not the botarena repository "
                f"(no go.mod and {package}): build the wheel from a checkout"
            )
        go = shutil.which("go")
        if go is None:
            sys.exit("BOTARENA_BUNDLE_BINARY is set but there is no `go` on PATH to build the server binary")
        target.parent.mkdir(parents=True, exist_ok=True)
        # -v names each package as it compiles: with -trimpath every package has other cache keys than a
        # plain go build's, so on a cold cache this compiles them all (the standard library too), once for
        # the binary (cgo off) and once more for the library (cgo on, c-shared): tens of minutes on two
        # busy cores, seconds once the Go cache holds them. make wheel runs pip -v so that this shows.
        cmd = [go, "build", "-v", "-trimpath", "-ldflags=-s"]
        env = dict(os.environ)
        if cgo:
            cmd.append("-buildmode=c-shared")
            env["CGO_ENABLED"] = "1"
        else:
            env.setdefault("CGO_ENABLED", "0")
        cmd += ["-o", str(target), package]
        print(
            f"botarena: CGO_ENABLED={env['CGO_ENABLED']} go {' '.join(cmd[1:])} in {root} "
            "(every package it compiles is named; on a cold Go cache that is all of them) ...",
            file=sys.stderr,
            flush=True,
        )
        start = time.monotonic()
        proc = subprocess.run(cmd, cwd=root, env=env)
        if proc.returncode != 0:
            sys.exit(f"go build {package} failed in {root} (status {proc.returncode})")
        os.chmod(target, 0o755)
        print(
            f"botarena: bundled {target} ({target.stat().st_size / 1e6:.1f} MB) "
            f"in {time.monotonic() - start:.1f} s",
            file=sys.stderr,
            flush=True,
        )


def _cgo_problem() -> str | None:
    """Why go cannot build the library with cgo here (no C compiler), or None.

    The native backend's probe (src/botarena/_cgo.py), run by path: the
    package is not importable while its wheel is being built. CGO_ENABLED
    is left out of the environment, since the library build sets it to 1.
    """
    probe = runpy.run_path(str(pathlib.Path(__file__).resolve().parent / "src" / "botarena" / "_cgo.py"))
    return probe["cgo_problem"]({k: v for k, v in os.environ.items() if k != "CGO_ENABLED"})


setup(
    distclass=BotarenaDistribution,
    cmdclass={"bdist_wheel": BundlingBdistWheel, "build_py": BundlingBuildPy},
)
