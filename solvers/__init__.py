"""goldspiel solvers: search, equilibrium solvers, bots and evaluation."""
from games._version import __version__  # noqa: F401
