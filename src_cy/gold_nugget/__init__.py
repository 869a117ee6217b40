"""The Gold Nugget engine modules (Cython)."""
