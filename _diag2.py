import sys, pyspiel, games
from games.testing import random_action
from src_cy.gold_nugget import resample_stats, event_text
from src_cy.rng import SplitMix64, derive_seed
game = pyspiel.load_game("gold_nugget", {"players": int(sys.argv[1]), "advanced": sys.argv[2] == "a"})
gi, p = int(sys.argv[3]), int(sys.argv[4])
rng = SplitMix64(derive_seed(1, gi))
st = game.new_initial_state(); hs = []
while not st.is_terminal():
    st.apply_action(random_action(st, rng)); hs.append(st.clone())
def over(s):
    b = resample_stats()["overruns"]
    for k in range(2):
        s.engine.py_resample_history(p, 100 + k)
    return resample_stats()["overruns"] - b
lo, hi = 0, len(hs) - 1
assert over(hs[hi])
while lo < hi:
    m = (lo + hi) // 2
    if over(hs[m]): hi = m
    else: lo = m + 1
print("first overrun at depth", lo + 1, "of", len(hs))
s0, s1 = hs[lo - 1], hs[lo]
a = s0.information_state_string(p).split("\n"); b = s1.information_state_string(p).split("\n")
print("\n".join(b[-40:]))
print("---- new:", b[len(a):])
import collections
print(collections.Counter(l for l in b if "Nest dive" in l))
print([l for l in b if "shuffle" in l.lower() or "deck" in l.lower()][:10])
print(b[:60])
from src_cy.gold_nugget import resample_dead
k0, p0 = resample_dead()
s1.engine.py_resample_history(p, 7)
k1, p1 = resample_dead()
print({k: k1[k] - k0.get(k, 0) for k in k1 if k1[k] - k0.get(k, 0)})
print({k: p1[k] - p0.get(k, 0) for k in p1 if p1[k] - p0.get(k, 0)})
print(resample_stats())
from src_cy.gold_nugget import resample_debug
resample_debug(1)
s1.engine.py_resample_history(p, 7)
resample_debug(0)
print(len(b))
