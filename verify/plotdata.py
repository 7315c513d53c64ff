"""Plot data for the report: curves thinned to what a figure can show.

The report stores every plot's series in report/results.json; a training curve recorded at every step
(10^4-10^5 points, dozens of curves per claim) would make that file grow by megabytes per claim, while a
figure shows at most a few hundred points per curve.  Verdicts never read plot data: they use the full
arrays."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["PLOT_POINTS", "forward_fill", "thin_curve"]

#: points kept per plotted curve
PLOT_POINTS = 400


def thin_curve(x, y, max_points: int = PLOT_POINTS) -> dict:
    """{'x': [...], 'y': [...]} with at most ``max_points`` evenly spaced points of the curve (first and last
    kept; a curve that short is returned whole), ready to go into a plot series."""
    x = np.asarray(x)
    y = np.asarray(y)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"arguments 'x' and 'y' must be 1-D arrays of one length, not {x.shape} and {y.shape}")
    if max_points < 2:
        raise ValueError(f"argument 'max_points' must be at least 2, not {max_points}")
    idx = np.unique(np.round(np.linspace(0, len(x) - 1, min(len(x), max_points))).astype(np.int64)) if len(x) else []
    return {"x": x[idx].tolist(), "y": y[idx].tolist()}


def forward_fill(a) -> np.ndarray:
    """A float64 copy of the 2-D array ``a`` with each row's NaNs replaced by the last value before them
    (curves of runs that stopped early, for plotting; leading NaNs stay NaN)."""
    out = np.array(a, dtype=np.float64)
    for row in out:
        last = math.nan
        for i, v in enumerate(row):
            if math.isnan(v):
                row[i] = last
            else:
                last = v
    return out
