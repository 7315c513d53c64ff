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
========  ===========================  ===============================

The derivative of an activation is again an activation (:meth:`Activation.derivative`); STEP and
SIGN have derivative 0 almost everywhere and refuse to be differentiated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba.extending import register_jitable

__all__ = ["Activation", "STEP", "RELU", "SIGN", "POLY", "SINE", "COSINE", "activation_value", "activation_value_numpy"]

STEP, RELU, SIGN, POLY, SINE, COSINE = 0, 1, 2, 3, 4, 5
_NAMES = {STEP: "step", RELU: "relu", SIGN: "sign", POLY: "poly", SINE: "sine", COSINE: "cosine"}


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
    raise ValueError(f"unknown activation code {code}")
