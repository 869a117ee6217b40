"""The High Card engine modules (Cython): the template game's engine."""
