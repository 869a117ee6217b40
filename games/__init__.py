"""goldspiel games: importing this package registers every game with pyspiel."""
from games._version import __version__
from games import gold_thief  # noqa: F401
from games import ardillas_del_bosque  # noqa: F401
from games import gold_nugget  # noqa: F401
from games import saboteur  # noqa: F401
