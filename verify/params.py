"""The declared parameters of a claim: :class:`Param` (name, type, domain) and :class:`InvalidParameter`.

A claim's parameters drive validation (``Claim.resolve_params``) and the command line (``verify run ID
--param name=value``): a value outside the declared domain raises :class:`InvalidParameter`, a ``ValueError``
whose message names the claim, the argument, the allowed domain and the value given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["InvalidParameter", "Param"]


class InvalidParameter(ValueError):
    """A parameter outside its declared domain; the message names claim, argument, domain and value."""


@dataclass(frozen=True)
class Param:
    """A declared parameter of a claim: name, type and domain (drives validation and the CLI)."""

    name: str
    type: type
    min: Any = None
    max: Any = None
    choices: tuple | None = None
    doc: str = ""

    def domain_text(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        kind = {int: "an integer", float: "a real number", bool: "a boolean", str: "a string"}.get(self.type, self.type.__name__)
        if self.min is not None and self.max is not None:
            return f"{kind} in [{self.min}, {self.max}]"
        if self.min is not None:
            return f"{kind} >= {self.min}"
        if self.max is not None:
            return f"{kind} <= {self.max}"
        return kind

    def coerce(self, claim_id: str, value: Any) -> Any:
        """Convert (a CLI string or a Python value) and validate, or raise InvalidParameter."""

        def bad(extra: str = "") -> InvalidParameter:
            return InvalidParameter(
                f"{claim_id}: argument '{self.name}' must be {self.domain_text()}, not {value!r} "
                f"({type(value).__name__}){extra}"
            )

        v = value
        if isinstance(value, str) and self.type is not str:
            text = value.strip()
            try:
                if self.type is int:
                    v = int(text)
                elif self.type is float:
                    v = float(Fraction(text)) if "/" in text else float(text)
                elif self.type is bool:
                    if text.lower() not in ("1", "0", "true", "false", "yes", "no"):
                        raise bad()
                    v = text.lower() in ("1", "true", "yes")
                else:
                    v = self.type(text)
            except (ValueError, ZeroDivisionError):
                raise bad() from None
        if self.type is int:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
                else:
                    raise bad()
            v = int(v)
        elif self.type is float:
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating, Fraction)):
                raise bad()
            v = float(v)
            if not math.isfinite(v):
                raise bad()
        elif self.type is bool:
            if not isinstance(v, (bool, np.bool_)):
                raise bad()
            v = bool(v)
        if self.choices is not None and v not in self.choices:
            raise bad()
        if self.min is not None and v < self.min:
            raise bad()
        if self.max is not None and v > self.max:
            raise bad()
        return v
