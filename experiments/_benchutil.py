"""Shared helpers for benchmark scripts: machine description, doc sections."""
from __future__ import annotations

import datetime
import os
import platform
import re


def machine_line() -> str:
    """One line naming the machine, Python and OpenSpiel, and today's date."""
    import numpy
    from importlib.metadata import version
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"Machine: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
            f"open_spiel {version('open_spiel')}, numpy {numpy.__version__}; "
            f"date {datetime.date.today().isoformat()}")


def replace_section(path: str, name: str, text: str) -> None:
    """Replace the text between ``<!-- name:start -->`` and ``<!-- name:end -->``."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    block = f"{start}\n{text.strip()}\n{end}"
    if start in doc:
        doc = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, doc, flags=re.S)
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, path)
