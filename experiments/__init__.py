"""Runnable experiments, by purpose.

* User commands: ``goldspiel <command>`` (the console script;
  ``python -m experiments <command>`` from a checkout; ``experiments.cli``
  lists them) or ``python -m experiments.<module>`` for ``policy_tables``
  (the main job, ``./run.sh``), ``search_table``, ``play``, ``match``,
  ``tournament``, ``strength``, ``demo``, ``bot_exploitability`` and
  ``exploitability_lower_bound``, with the modules they share (``botspec``,
  ``play_render``).
* ``experiments.bench``: the benchmarks ``docs/benchmarks.md`` cites,
  ``python -m experiments.bench.<name>``.
* ``experiments.research``: one-off research scripts, run from a checkout
  (``python -m experiments.research.<name>``); not shipped in the wheel.

The other top-level modules are measurements the docs cite under these
names.
"""
