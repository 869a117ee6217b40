"""One-off research scripts, run from a checkout
(``python -m experiments.research.<name>``).  Not shipped in the wheel
(``pyproject.toml`` lists the packages; ``tests/test_installed.py``)."""
