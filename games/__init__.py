"""goldspiel games: importing this package registers every game with pyspiel."""
