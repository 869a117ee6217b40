import sys, pyspiel, games
from experiments.gold_nugget_resample_stress import states_along_games
from src_cy.gold_nugget import resample_stats, resample_dead, event_text
from src_cy.rng import derive_seed
name = {"players": int(sys.argv[1]), "advanced": sys.argv[2] == "a"}
game = pyspiel.load_game("gold_nugget", name)
engs = states_along_games(game, int(sys.argv[3]), 30, 1)
over = []
for i, e in enumerate(engs):
    for p in range(game.num_players()):
        b = resample_stats()["overruns"]
        e.py_resample_history(p, derive_seed(5, i * 10 + p))
        if resample_stats()["overruns"] > b:
            over.append((i, p, len(e.py_history()), e.py_is_terminal()))
print(len(over), len(engs) * game.num_players(), over[:20])
k, ph = resample_dead()
names = {}
import src_cy.gold_nugget as g
print(sorted(k.items(), key=lambda x: -x[1])[:15])
print(sorted(ph.items(), key=lambda x: -x[1])[:15])
