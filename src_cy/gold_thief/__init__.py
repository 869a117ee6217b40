"""The Gold Thief engine modules (Cython)."""
