"""Facts about the machine a report or benchmark ran on (I/O helper, no mathematics)."""

from __future__ import annotations

import os
import platform

__all__ = ["cpu_model", "machine_line"]


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else platform.processor()."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    """One line: OS, architecture, CPU model, CPU count and numba's thread count."""
    import numba

    return (f"{platform.system()} {platform.machine()}, {cpu_model()}, {os.cpu_count()} CPUs, "
            f"numba threads {numba.get_num_threads()}")
