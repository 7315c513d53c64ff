"""verify.plotdata.thin_curve: at most max_points evenly spaced points, endpoints kept, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from verify.plotdata import thin_curve


def test_thins_long_curves_keeping_the_endpoints():
    x = np.arange(10_001)
    out = thin_curve(x, x ** 2.0, max_points=400)
    assert len(out["x"]) == len(out["y"]) <= 400 and len(out["x"]) >= 399
    assert out["x"][0] == 0 and out["x"][-1] == 10_000
    assert all(b > a for a, b in zip(out["x"], out["x"][1:]))
    assert all(y == x ** 2.0 for x, y in zip(out["x"], out["y"]))


def test_short_curves_are_kept_whole():
    assert thin_curve([1, 2, 3], [4.0, 5.0, 6.0]) == {"x": [1, 2, 3], "y": [4.0, 5.0, 6.0]}
    assert thin_curve([], []) == {"x": [], "y": []}


@pytest.mark.parametrize("x,y,kw,match", [
    ([1, 2], [1.0], {}, "one length"),
    ([[1, 2]], [[1, 2]], {}, "1-D"),
    ([1, 2], [1, 2], {"max_points": 1}, "at least 2"),
])
def test_bad_input(x, y, kw, match):
    with pytest.raises(ValueError, match=match):
        thin_curve(x, y, **kw)


def test_forward_fill_carries_the_last_value():
    from verify.plotdata import forward_fill

    nan = float("nan")
    out = forward_fill([[nan, 1.0, nan, 2.0, nan], [3.0, nan, nan, nan, nan]])
    assert np.isnan(out[0, 0]) and out[0, 1:].tolist() == [1.0, 1.0, 2.0, 2.0]
    assert out[1].tolist() == [3.0] * 5
