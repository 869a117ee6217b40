"""Runnable experiments, by purpose.

* User commands: ``goldspiel <command>`` (the console script;
  ``python -m experiments <command>`` from a checkout; ``experiments.cli``
  lists them) or ``python -m experiments.<module>`` for ``policy_tables``
  (the main job, ``./run.sh``), ``search_table``, ``play``, ``match``,
  ``tournament``, ``strength``, ``demo``, ``bot_exploitability``,
  ``exploitability_lower_bound``, ``best_vs_heuristic`` and ``rl_dqn``, with
  the modules they share (``botspec``, ``play_render``).
* ``experiments.bench``: the benchmarks and measurements ``docs/benchmarks.md``
  cites (speed, game lengths, resampler stress), ``python -m
  experiments.bench.<name>``.
* ``experiments.research``: one-off research scripts, run from a checkout
  (``python -m experiments.research.<name>``); not shipped in the wheel.
"""
