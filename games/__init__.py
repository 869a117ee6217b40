"""goldspiel games: importing this package registers every game with pyspiel."""
from games import gold_thief  # noqa: F401
