"""Runnable experiment scripts: ``python -m experiments.<name>``."""
