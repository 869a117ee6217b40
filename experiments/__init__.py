"""Runnable experiments, by purpose.

* User commands: ``python -m experiments.<command>`` for ``policy_tables``
  (the main job, ``./run.sh``), ``play``, ``match``, ``tournament``,
  ``strength`` and ``demo``, with the modules they share (``botspec``,
  ``play_render``).
* ``experiments.bench``: the benchmarks ``docs/benchmarks.md`` cites,
  ``python -m experiments.bench.<name>``.
* ``experiments.research``: one-off research scripts, run from a checkout
  (``python -m experiments.research.<name>``); not shipped in the wheel.

The other top-level modules are measurements the docs cite under these
names.
"""
