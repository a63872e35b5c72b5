"""A run's learning curve: ``curve.csv`` (one row per update) and its plot, ``curve.png``."""

from __future__ import annotations

import csv
import os
import pathlib
from typing import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["plot_curve", "read_curve", "return_limits", "write_curve"]


def read_curve(csv_path: str | os.PathLike[str]) -> list[dict[str, float]]:
    """The rows of a curve.csv, every value a float."""
    with open(csv_path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def write_curve(csv_path: str | os.PathLike[str], rows: Sequence[dict[str, float]]) -> None:
    """Writes the rows (at least one) to a curve.csv, replacing it whole (through a .tmp file).

    The columns are every row's keys in the order they first appear, so that a run resumed with a
    column its earlier rows lack (``aux_loss`` once ``--imitate-coef`` is on) still writes; a row
    without a column gets ``nan`` there, which :func:`read_curve` reads back as NaN.
    """
    path = pathlib.Path(csv_path)
    tmp = path.with_suffix(".csv.tmp")
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="nan")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    os.replace(tmp, path)


def return_limits(values: npt.NDArray[np.float64]) -> tuple[float, float]:
    """The y range of the return plot: the values' range widened to hold 0 and to span at least 1.

    An autoscaled axis stretches any range to the full height, so a return that moved from -2.11
    to -2.10 would look like a climb; anchored at 0 and at least one unit tall (a win is worth 1),
    a flat return looks flat.
    """
    finite = values[np.isfinite(values)]
    lo = min(0.0, float(finite.min())) if finite.size else 0.0
    hi = max(0.0, float(finite.max())) if finite.size else 1.0
    if hi - lo < 1.0:
        if lo < 0.0 and hi <= 0.0:
            lo = min(lo, hi - 1.0)
        else:
            hi = lo + 1.0
    pad = 0.05 * (hi - lo)
    return lo - pad, hi + pad


def plot_curve(csv_path: str | os.PathLike[str], png_path: str | os.PathLike[str], *, title: str = "") -> None:
    """Draws a run's curve.csv: win/draw/loss rates (on a fixed 0–1 axis) and return (on an axis that
    holds 0, :func:`return_limits`) against steps, and steps/s."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_curve(csv_path)
    if not rows:
        return
    x = np.array([r["env_steps"] for r in rows]) / 1e6

    def col(k: str) -> npt.NDArray[np.float64]:
        return np.array([r[k] for r in rows])

    def smooth(y: npt.NDArray[np.float64], k: int = 5) -> npt.NDArray[np.float64]:
        out = np.empty_like(y)
        for i in range(len(y)):
            w = y[max(0, i - k + 1) : i + 1]
            w = w[~np.isnan(w)]
            out[i] = w.mean() if len(w) else np.nan
        return out

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    ax = axes[0]
    ax.plot(x, smooth(col("win_rate")), label="win")
    ax.plot(x, smooth(col("draw_rate")), label="draw")
    ax.plot(x, smooth(col("loss_rate")), label="loss")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("rate against the opponent")
    ax.legend()
    ax.grid(alpha=0.3)
    ax = axes[1]
    ret = smooth(col("mean_return"))
    ax.plot(x, ret)
    ax.set_ylim(*return_limits(ret))
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("mean episode return")
    ax.grid(alpha=0.3)
    ax = axes[2]
    ax.plot(col("seconds") / 60, col("steps_per_s"), label="learner steps/s (with training)")
    ax.plot(col("seconds") / 60, col("rollout_steps_per_s"), label="learner steps/s (rollout only)")
    ax.set_xlabel("minutes")
    ax.set_ylabel("steps per second")
    ax.legend()
    ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
