"""The trainer's reading of the CPU: whether --bf16 can pay (no PyTorch needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from botarena.train.config import cpu_has_bfloat16

X86_FLAGS = "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr sse sse2 avx avx2 fma bmi2"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (f"processor\t: 0\nflags\t\t: {X86_FLAGS}\n\nprocessor\t: 1\nflags\t\t: {X86_FLAGS}\n", False),
        (f"processor\t: 0\nflags\t\t: {X86_FLAGS} avx512f avx512_bf16\n", True),
        (f"processor\t: 0\nflags\t\t: {X86_FLAGS} amx_bf16 amx_tile\n", True),
        ("processor\t: 0\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics bf16 i8mm\n", True),
        ("processor\t: 0\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics\n", False),
        ("processor\t: 0\nmodel name\t: something without a flags line\n", None),
        ("", None),
    ],
    ids=["avx2 only", "avx512_bf16", "amx_bf16", "arm64 bf16", "arm64 without", "no flags line", "empty"],
)
def test_bfloat16_is_read_from_the_cpus_flags(text: str, want: bool | None, tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(text)
    assert cpu_has_bfloat16(str(cpuinfo)) is want


def test_bfloat16_is_unknown_without_a_cpuinfo_file(tmp_path: Path) -> None:
    assert cpu_has_bfloat16(str(tmp_path / "missing")) is None
