"""The wheel build step that bundles the botarena server binary.

pyproject.toml holds the metadata; this file only adds one optional build
step. With ``BOTARENA_BUNDLE_BINARY=1`` in the environment, ``bdist_wheel``
(``pip wheel``, ``python -m build --wheel``, ``make wheel``) runs, from the
repository root (the directory above python/)::

    CGO_ENABLED=0 go build -trimpath -ldflags=-s -o <build_lib>/botarena/bin/botarena ./cmd/botarena

and tags the wheel ``py3-none-<platform>`` (the binary is for the building
machine's platform; it does not depend on the Python version). The binary is
static (cgo off, unless CGO_ENABLED is set), so the wheel runs where there is
no Go toolchain; ``botarena.server.find_binary`` finds it next to the package.

Without the variable (or with it set to 0) nothing is built and the wheel is
pure Python (``py3-none-any``), as before. An editable install
(``pip install -e python``) never builds or bundles anything, whatever the
variable says: setuptools' ``editable_wheel`` does not run ``bdist_wheel``.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import time

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

_BUNDLED = ("botarena", "bin", "botarena")


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
        if getattr(self, "editable_mode", False):
            return
        if getattr(self.distribution, "bundle_binary", False):
            self._go_build(target)
        elif target.exists():
            target.unlink()

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if getattr(self.distribution, "bundle_binary", False):
            outputs.append(os.path.join(self.build_lib, *_BUNDLED))
        return outputs

    def _go_build(self, target: pathlib.Path) -> None:
        root = pathlib.Path(__file__).resolve().parent.parent
        if not (root / "go.mod").is_file() or not (root / "cmd" / "botarena").is_dir():
            sys.exit(
                f"BOTARENA_BUNDLE_BINARY is set but {root} is not the botarena repository "
                "(no go.mod and cmd/botarena): build the wheel from a checkout"
            )
        go = shutil.which("go")
        if go is None:
            sys.exit("BOTARENA_BUNDLE_BINARY is set but there is no `go` on PATH to build the server binary")
        target.parent.mkdir(parents=True, exist_ok=True)
        cmd = [go, "build", "-trimpath", "-ldflags=-s", "-o", str(target), "./cmd/botarena"]
        env = dict(os.environ)
        env.setdefault("CGO_ENABLED", "0")
        print(
            f"botarena: CGO_ENABLED={env['CGO_ENABLED']} {' '.join(cmd[1:])} in {root} ...",
            file=sys.stderr,
            flush=True,
        )
        start = time.monotonic()
        proc = subprocess.run(cmd, cwd=root, env=env)
        if proc.returncode != 0:
            sys.exit(f"go build ./cmd/botarena failed in {root} (status {proc.returncode})")
        os.chmod(target, 0o755)
        print(
            f"botarena: bundled {target} ({target.stat().st_size / 1e6:.1f} MB) "
            f"in {time.monotonic() - start:.1f} s",
            file=sys.stderr,
            flush=True,
        )


setup(
    distclass=BotarenaDistribution,
    cmdclass={"bdist_wheel": BundlingBdistWheel, "build_py": BundlingBuildPy},
)
