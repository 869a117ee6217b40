"""The Saboteur engine modules (Cython)."""
