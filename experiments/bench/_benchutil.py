"""Shared helpers for benchmark scripts: machine description, doc sections."""
from __future__ import annotations

import argparse
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


def publish(command: str, table: str, section: str, write: bool) -> None:
    """Print the machine line, the command and the table; with ``write``,
    put them in ``section`` of ``docs/benchmarks.md``."""
    text = f"{machine_line()}\n\nCommand: `{command}`\n\n{table}\n"
    print(text)
    if write:
        replace_section("docs/benchmarks.md", section, text)


def bench_parser(doc: str | None, seed_help: str) -> argparse.ArgumentParser:
    """An argument parser with the options every benchmark shares: ``--seed``,
    ``--only`` (keep configurations whose name contains it) and ``--write``."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0, help=seed_help)
    parser.add_argument("--only", default="", help="keep configurations whose name contains this")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    return parser
