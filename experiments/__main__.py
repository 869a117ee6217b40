"""``python -m experiments <command>``: the ``goldspiel`` command (``experiments.cli``)."""
import sys

from experiments.cli import main

sys.exit(main())
