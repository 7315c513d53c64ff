"""Activation functions of single neurons, as data that compiled kernels can evaluate.

An :class:`Activation` is a code plus a small float64 parameter vector.  The scalar evaluation
:func:`activation_value` is one function registered with ``numba.extending.register_jitable``, so the
CPU kernels (``numba.njit``) and the CUDA kernels (``numba.cuda.jit``) compile the very same body;
:func:`activation_value_numpy` is the independent numpy oracle used by the reference kernels.

Codes and the function each one computes at a pre-activation z:

========  ===========================  ===============================
code      sigma(z)                     parameters
========  ===========================  ===============================
STEP      1[z > 0]                     none (the ReLU derivative, Eq. (B.4))
RELU      max(z, 0)                    none
SIGN      sign(z) in {-1, 0, 1}        none
POLY      sum_m c_m z^m                c_0, ..., c_d
SINE      A sin(a z + beta)            A, a, beta
COSINE    A cos(a z + beta)            A, a, beta
ZIGZAG    k-zigzag (see below)         k
TRIANGLE  A tri(a z + beta)            A, a, beta
========  ===========================  ===============================

The k-zigzag (seed 004, App. B.4.1, line 3910) is the piecewise-linear interpolant of the k+1 points
(k - 2m, (-1)^m), m = 0..k, continued linearly beyond z = +-k; on [k-2m-2, k-2m] it equals
(-1)^m (1 + z - (k - 2m)).  tri is the triangle wave of period 2 with tri(0) = 1, tri(1) = -1:
tri(t) = 1 - 2 |t - 2 round(t/2)|; A tri((z - k)/2) takes the value (-1)^m at z = k - 2m, which is the
period-4 infinite zigzag that represents every k-sparse parity (line 3917; see the erratum of
``thesis_ch5.constructions.infinite_zigzag`` about the printed period).

:func:`activation_slope` is sigma'(z); at a kink it is the slope of the piece to the right, except for
RELU, whose slope at 0 is 0 (the STEP convention of Eq. (B.4)).

The derivative of an activation is again an activation (:meth:`Activation.derivative`); STEP and
SIGN have derivative 0 almost everywhere and refuse to be differentiated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba.extending import register_jitable

__all__ = [
    "Activation",
    "STEP",
    "RELU",
    "SIGN",
    "POLY",
    "SINE",
    "COSINE",
    "ZIGZAG",
    "TRIANGLE",
    "activation_slope",
    "activation_slope_numpy",
    "activation_value",
    "activation_value_numpy",
]

STEP, RELU, SIGN, POLY, SINE, COSINE, ZIGZAG, TRIANGLE = 0, 1, 2, 3, 4, 5, 6, 7
_NAMES = {STEP: "step", RELU: "relu", SIGN: "sign", POLY: "poly", SINE: "sine", COSINE: "cosine", ZIGZAG: "zigzag",
          TRIANGLE: "triangle"}


@dataclass(frozen=True)
class Activation:
    """A scalar activation sigma as (code, parameters); build with the class-method constructors."""

    code: int
    params: tuple[float, ...] = field(default=())

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def step(cls) -> "Activation":
        """1[z > 0], the derivative of the ReLU (value 0 at z = 0, as in Eq. (B.4))."""
        return cls(STEP)

    @classmethod
    def relu(cls) -> "Activation":
        return cls(RELU)

    @classmethod
    def sign(cls) -> "Activation":
        return cls(SIGN)

    @classmethod
    def poly(cls, coeffs) -> "Activation":
        """sum_m coeffs[m] z^m (coefficients in increasing degree)."""
        c = tuple(float(v) for v in coeffs)
        if not c:
            raise ValueError("argument 'coeffs' must list at least one coefficient, not an empty sequence")
        return cls(POLY, c)

    @classmethod
    def power(cls, p: int) -> "Activation":
        """z^p."""
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(f"argument 'p' must be an integer >= 0, not {p!r}")
        return cls.poly([0.0] * p + [1.0])

    @classmethod
    def sine(cls, freq: float = 1.0, phase: float = 0.0, amplitude: float = 1.0) -> "Activation":
        """amplitude * sin(freq * z + phase)."""
        return cls(SINE, (float(amplitude), float(freq), float(phase)))

    @classmethod
    def cosine(cls, freq: float = 1.0, phase: float = 0.0, amplitude: float = 1.0) -> "Activation":
        """amplitude * cos(freq * z + phase)."""
        return cls(COSINE, (float(amplitude), float(freq), float(phase)))

    @classmethod
    def zigzag(cls, k: int) -> "Activation":
        """The k-zigzag: piecewise-linear through (k - 2m, (-1)^m), m = 0..k, linear beyond +-k."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"argument 'k' must be an integer >= 1, not {k!r}")
        return cls(ZIGZAG, (float(k),))

    @classmethod
    def triangle(cls, freq: float = 1.0, phase: float = 0.0, amplitude: float = 1.0) -> "Activation":
        """amplitude * tri(freq * z + phase), tri the period-2 triangle wave with tri(0) = 1, tri(1) = -1."""
        return cls(TRIANGLE, (float(amplitude), float(freq), float(phase)))

    @classmethod
    def parity_triangle(cls, k: int) -> "Activation":
        """The infinite zigzag tri((z - k)/2): value (-1)^m at z = k - 2m, so sigma(w_S . x) = chi_S(x)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"argument 'k' must be an integer >= 1, not {k!r}")
        return cls.triangle(0.5, -0.5 * k)

    @classmethod
    def parity_sine(cls, k: int, scale: float = 1.0) -> "Activation":
        """sigma(scale z) with sigma(z) = sin(pi/2 z + beta), beta = pi/2 - pi k/2 (line 3919): sigma takes the
        value (-1)^m at z = k - 2m; the text's (n, k) = (50, 3) runs use scale 2 ("z -> sigma(2z)")."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"argument 'k' must be an integer >= 1, not {k!r}")
        return cls.sine(scale * math.pi / 2, math.pi / 2 - math.pi * k / 2)

    # -- calculus -----------------------------------------------------------------------------
    def derivative(self) -> "Activation":
        """sigma' as an Activation (exact parameter maps, no rounding beyond one product)."""
        if self.code == RELU:
            return Activation.step()
        if self.code == POLY:
            c = self.params
            d = tuple(m * c[m] for m in range(1, len(c))) or (0.0,)
            return Activation(POLY, d)
        if self.code == SINE:
            amp, freq, phase = self.params
            return Activation(COSINE, (amp * freq, freq, phase))
        if self.code == COSINE:
            amp, freq, phase = self.params
            return Activation(SINE, (-amp * freq, freq, phase))
        raise ValueError(
            f"activation '{self.name}' has derivative 0 almost everywhere and no useful derivative; "
            "differentiate relu, poly, sine or cosine"
        )

    @property
    def name(self) -> str:
        return _NAMES.get(self.code, f"code{self.code}")

    @property
    def integer_valued(self) -> bool:
        """True when sigma takes integer values only (STEP, SIGN): cube sums are then exact in float64."""
        return self.code in (STEP, SIGN)

    def param_array(self) -> np.ndarray:
        """Parameters as a float64 array (length >= 1) for the compiled kernels."""
        return np.array(self.params if self.params else (0.0,), dtype=np.float64)

    def __call__(self, z):
        """Evaluate on numpy input (reference path)."""
        return activation_value_numpy(self.code, np.asarray(z, dtype=np.float64), self.param_array())

    def __str__(self) -> str:
        return f"{self.name}{self.params if self.params else ''}"


@register_jitable
def activation_value(code, z, params):  # pragma: no cover - compiled
    """sigma(z) for the activation ``code`` with parameters ``params`` (shared CPU/CUDA scalar body)."""
    z = np.float64(z)  # double arithmetic in every twin (the CUDA simulator would keep float32 inputs in float32)
    if code == 0:
        return 1.0 if z > 0.0 else 0.0
    if code == 1:
        return z if z > 0.0 else 0.0
    if code == 2:
        if z > 0.0:
            return 1.0
        if z < 0.0:
            return -1.0
        return 0.0
    if code == 3:
        acc = 0.0
        for m in range(params.shape[0] - 1, -1, -1):
            acc = acc * z + params[m]
        return acc
    if code == 4:
        return params[0] * math.sin(params[1] * z + params[2])
    if code == 5:
        return params[0] * math.cos(params[1] * z + params[2])
    if code == 6:
        k = params[0]
        m = math.floor((k - z) / 2.0)
        m = 0.0 if m < 0.0 else (k - 1.0 if m > k - 1.0 else m)
        sgn = 1.0 if m % 2.0 == 0.0 else -1.0
        return sgn * (1.0 + z - (k - 2.0 * m))
    if code == 7:
        t = params[1] * z + params[2]
        return params[0] * (1.0 - 2.0 * abs(t - 2.0 * math.floor(t / 2.0 + 0.5)))
    return math.nan


@register_jitable
def activation_slope(code, z, params):  # pragma: no cover - compiled
    """sigma'(z) (shared CPU/CUDA scalar body).  At a kink the slope of the piece to the right is taken,
    except RELU, whose slope at 0 is 0 (the STEP convention of Eq. (B.4)); STEP and SIGN have slope 0."""
    z = np.float64(z)  # double arithmetic in every twin (the CUDA simulator would keep float32 inputs in float32)
    if code == 0 or code == 2:
        return 0.0
    if code == 1:
        return 1.0 if z > 0.0 else 0.0
    if code == 3:
        acc = 0.0
        for m in range(params.shape[0] - 1, 0, -1):
            acc = acc * z + m * params[m]
        return acc
    if code == 4:
        return params[0] * params[1] * math.cos(params[1] * z + params[2])
    if code == 5:
        return -params[0] * params[1] * math.sin(params[1] * z + params[2])
    if code == 6:
        k = params[0]
        m = math.floor((k - z) / 2.0)
        m = 0.0 if m < 0.0 else (k - 1.0 if m > k - 1.0 else m)
        if z == k - 2.0 * m and m > 0.0:  # the kink at k - 2m: slope of the piece to the right (index m - 1)
            m -= 1.0
        return 1.0 if m % 2.0 == 0.0 else -1.0
    if code == 7:
        t = params[1] * z + params[2]
        r = t - 2.0 * math.floor(t / 2.0 + 0.5)  # in [-1, 1)
        slope_t = 2.0 if r < 0.0 else -2.0
        if params[1] < 0.0:  # the piece to the right in z is the piece to the left in t
            slope_t = 2.0 if -1.0 < r <= 0.0 else -2.0
        return params[0] * params[1] * slope_t
    return math.nan


def activation_value_numpy(code: int, z: np.ndarray, params: np.ndarray) -> np.ndarray:
    """Vectorised numpy oracle for :func:`activation_value`, written independently of it."""
    if code == STEP:
        return (z > 0).astype(np.float64)
    if code == RELU:
        return np.maximum(z, 0.0)
    if code == SIGN:
        return np.sign(z).astype(np.float64)
    if code == POLY:
        return np.polynomial.polynomial.polyval(z, params)
    if code == SINE:
        return params[0] * np.sin(params[1] * z + params[2])
    if code == COSINE:
        return params[0] * np.cos(params[1] * z + params[2])
    if code == ZIGZAG:
        k = int(params[0])
        knots_z = np.array([k - 2.0 * m for m in range(k, -1, -1)])  # increasing
        knots_y = np.array([(-1.0) ** m for m in range(k, -1, -1)])
        inner = np.interp(z, knots_z, knots_y)
        left = knots_y[0] + (knots_y[1] - knots_y[0]) / 2.0 * (z - knots_z[0])
        right = knots_y[-1] + (knots_y[-1] - knots_y[-2]) / 2.0 * (z - knots_z[-1])
        return np.where(z < knots_z[0], left, np.where(z > knots_z[-1], right, inner))
    if code == TRIANGLE:
        t = params[1] * z + params[2]
        return params[0] * (1.0 - 2.0 * np.abs(np.mod(t + 1.0, 2.0) - 1.0))
    raise ValueError(f"unknown activation code {code}")


def activation_slope_numpy(code: int, z: np.ndarray, params: np.ndarray) -> np.ndarray:
    """Vectorised numpy oracle for :func:`activation_slope` away from the kinks (symbolic derivatives for
    the smooth codes, the one-sided difference of :func:`activation_value_numpy` for the piecewise-linear
    ones: exact there, since both sides of the quotient lie on the piece to the right)."""
    if code in (ZIGZAG, TRIANGLE):
        h = 2.0**-20
        return (activation_value_numpy(code, z + h, params) - activation_value_numpy(code, z, params)) / h
    if code in (STEP, SIGN):
        return np.zeros_like(z)
    act = Activation(code, tuple(float(v) for v in params) if code in (POLY, SINE, COSINE) else ())
    d = act.derivative()
    return activation_value_numpy(d.code, z, d.param_array())
