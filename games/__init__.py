"""goldspiel games: importing this package registers every game with pyspiel
and every game's spec with ``games.spec`` (OpenSpiel's Kuhn and Leduc poker
included, as specs over OpenSpiel's own games)."""
from games._version import __version__
from games import kuhn_poker  # noqa: F401
from games import leduc_poker  # noqa: F401
from games import gold_thief  # noqa: F401
from games import ardillas_del_bosque  # noqa: F401
from games import gold_nugget  # noqa: F401
from games import saboteur  # noqa: F401
