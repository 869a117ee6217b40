"""The ``goldspiel`` command: every command resolves, bad commands are refused."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from experiments import cli


@pytest.mark.parametrize("name", sorted(cli.COMMANDS))
def test_every_command_is_a_module_with_main(name):
    module = importlib.import_module(cli.COMMANDS[name][0])
    assert callable(module.main)
    with pytest.raises(SystemExit) as exit_:
        cli.main([name, "--help"])
    assert exit_.value.code == 0


def test_listing_and_unknown_commands(capsys):
    assert cli.main([]) == 2
    assert "tables" in capsys.readouterr().out
    assert cli.main(["--help"]) == 0
    assert cli.main(["chess"]) == 2
    assert "unknown command 'chess'" in capsys.readouterr().err


def test_a_command_runs_through_python_m_experiments(tmp_path):
    out = subprocess.run([sys.executable, "-m", "experiments", "tables", "--games",
                          "kuhn_poker", "--iterations", "20", "--save-policy", "no",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "kuhn_poker" / "policy_table.csv").exists()
