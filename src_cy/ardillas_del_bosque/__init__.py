"""The Ardillas Del Bosque engine modules (Cython)."""
