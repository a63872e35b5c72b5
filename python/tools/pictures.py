"""Writes docs/img/games.png: one mid-game picture of each game, side by side, as ``rgb_array`` renders them.

    .venv/bin/python python/tools/pictures.py [OUT.png]

Each game plays ``STEPS`` steps of random legal actions from a fixed seed
against its built-in opponents, then ``Pool.render_rgb`` draws it (the full
view). The PNG is written with zlib alone, so that no imaging package is
needed.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np

import botarena

#: (game, steps, opponents, config): chosen so that each board is busy.
SHOTS = [
    ("bomberman", 60, "reference", {}),
    ("battleships/small", 40, "reference", {}),
    ("battlecube", 12, "teebot", {}),
    ("battlebots", 14, "sniper", {}),
    ("portalbomber", 40, "greedy", {}),
]
GAP = 12
BACKGROUND = (0x14, 0x16, 0x1A)


def write_png(path: Path, rgb: np.ndarray) -> None:
    """Writes an (H, W, 3) uint8 array as an 8-bit RGB PNG."""
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.write_bytes(png)


def frame(server: botarena.Server, game: str, steps: int, opponents: str, config: dict) -> np.ndarray:
    env = botarena.make_vec(game, 1, opponents=opponents, seed=7, address=server.address, **config)
    _, infos = env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(steps):
        legal = np.flatnonzero(infos["action_mask"][0])
        _, _, term, trunc, infos = env.step(np.array([rng.choice(legal)]))
        if term[0] or trunc[0]:
            break
    img = np.array(env.pool.render_rgb(0))
    env.close()
    return img


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img/games.png")
    with botarena.Server() as server:
        frames = [frame(server, *shot) for shot in SHOTS]
    height = max(f.shape[0] for f in frames)
    width = sum(f.shape[1] for f in frames) + GAP * (len(frames) + 1)
    canvas = np.empty((height + 2 * GAP, width, 3), dtype=np.uint8)
    canvas[:] = BACKGROUND
    x = GAP
    for f in frames:
        y = GAP + (height - f.shape[0]) // 2
        canvas[y : y + f.shape[0], x : x + f.shape[1]] = f
        x += f.shape[1] + GAP
    out.parent.mkdir(parents=True, exist_ok=True)
    write_png(out, canvas)
    print(f"wrote {out} ({canvas.shape[1]}x{canvas.shape[0]})")


if __name__ == "__main__":
    main()
