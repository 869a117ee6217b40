"""Gold Nugget heuristic: what a sensible casual animal does.

The bot reads only its player's view (``engine.player_view(me)``: its hand,
feathers, every lair with the faces it knows, the phase, the animals it was
offered, the decision it faces).  The nugget is *located* when the player
sees a lair stone as the nugget.

Rules:

* animal choice: the offered animal ranked best for finding and taking
  stones (Owl, Raccoon, Magpie, Fox, Bat, Mole, Bear, Squirrel, Rabbit,
  Hedgehog, Snake, Badger);
* examine every acquired stone unless a trap could catch me (2+ feathers);
  as a Suspicion target reveal my stones, unless the nugget is mine and I
  have no feather, or I hold Daredevil and no feather (then take the two
  feathers);
* Go to sleep!: meddle when I hold a card the Meddling rules would play,
  else sleep;
* Meddling: nugget located in another lair: steal it (No hard feelings,
  Chance, Sleight of paw, Accuse); Preen with 2+ feathers (1+ holding Clean
  slate, never at 2 holding Daredevil); the victory card once its condition
  looks reachable (below), or on the last day anyway; while the nugget is
  not located and some lair stone is unknown: the Owl's or Magpie's
  ability, Nest dive, recycling a card (a nest stone I then examine), Do I
  have it?, Peek, Glance, Shout, Suspicion (holding Hoarder, the Magpie's
  ability, Nest dive and recycling also otherwise); else end;
* victory card (it counts only once played, and playing reveals it):
  Raven's pact at once; Fool's gold once a trap is located in my lair;
  Hoarder when my lair holds the most stones; Clean slate with no feather;
  Daredevil with two feathers; Decoy when the nugget is located in my lair;
* instant window: Chance on a located nugget in another lair, Glance while
  it is not located, else pass; Raven's face-down card: Chance or No hard
  feelings on a located nugget, else none;
* placing an acquired stone: at the end of my lair, where it arrived;
* stone choices: the nugget in another lair, never my own nugget; when only
  my stones are offered (giving or swapping away) a known trap (holding
  Fool's gold: last but the nugget), then a known normal stone, then an
  unknown one; otherwise an unknown stone of another lair, of mine, the
  nest, then a known one.  The final grab: the located nugget, else
  (holding Fool's gold, played) a located trap of my own, else an unknown
  stone of the lair with most unknown stones, else the nest;
* animal targets: the holder of the located nugget, else the other animal
  with most stones; Beg: give a black feather, else my least useful card;
  the hand limit: discard the least useful card; Hello!: keep my cards.
"""
from __future__ import annotations

import pyspiel

from games.interfaces import RuleBot, resample_by
from src_cy.gold_nugget.engine import ACTION_LAYOUT as _LAYOUT  # the ids' one definition (gold_nugget_actions.pxd)

A_PASS, A_SLEEP, A_MEDDLE, A_OPT0, A_OPT1, A_ABILITY, A_VICTORY, A_FEATHER = (
    _LAYOUT[k] for k in ("A_PASS", "A_SLEEP", "A_MEDDLE", "A_OPT0", "A_OPT1", "A_ABILITY",
                         "A_VICTORY", "A_FEATHER"))
A_PLAY, A_RECYCLE, A_DISCARD, A_PLAYER, A_NEST, A_STONE = (
    _LAYOUT[k] for k in ("A_PLAY", "A_RECYCLE", "A_DISCARD", "A_PLAYER", "A_NEST", "A_STONE"))
MAX_STONES = _LAYOUT["MAX_STONES"]
(BEG, CHANCE, NO_HARD_FEELINGS, SUSPICION, GOLD_NUGGET, LOYAL_FRIEND, TRIBUTE,
 DO_I_HAVE_IT, PEEK, GLANCE, SHOUT, PLUCK, SLEIGHT, PREEN, NEST_DIVE, ACCUSE) = _LAYOUT["LEAF_CARDS"]
ANIMAL_RANK = ("Owl", "Raccoon", "Magpie", "Fox", "Bat", "Mole", "Bear", "Squirrel",
               "Rabbit", "Hedgehog", "Snake", "Badger")
# Least useful first (discards and Beg gifts).
CARD_VALUE_ORDER = (PLUCK, BEG, TRIBUTE, SUSPICION, LOYAL_FRIEND, ACCUSE, SHOUT, PREEN,
                    DO_I_HAVE_IT, GOLD_NUGGET, NEST_DIVE, SLEIGHT, GLANCE, PEEK,
                    NO_HARD_FEELINGS, CHANCE)
STEALS = (NO_HARD_FEELINGS, CHANCE, SLEIGHT, ACCUSE)
LOOKS = (DO_I_HAVE_IT, PEEK, GLANCE, SHOUT, SUSPICION)


def victory_ready(view: dict, me: int, lairs: dict[int, str]) -> bool:
    """Whether to reveal my victory card now (module docstring)."""
    card = view["victory_card"]
    feathers = view["feathers"][me] if view["feathers"] is not None else 0
    if view["day"] == view["days"] - 1:
        return True
    if card == "Raven's pact":
        return True
    if card == "Fool's gold":
        return "t" in lairs.get(me, "")
    if card == "Hoarder":
        return all(len(lairs[me]) > len(s) for q, s in lairs.items() if q != me)
    if card == "Clean slate":
        return feathers == 0
    if card == "Daredevil":
        return feathers == 2
    if card == "Decoy":
        return "N" in lairs.get(me, "")
    return False


class GoldNuggetHeuristicBot(RuleBot):
    """The casual-animal rules of the module docstring."""

    GAME = "gold_nugget"

    def choose(self, state: pyspiel.State, me: int, legal: list[int]) -> int:
        view = state.engine.player_view(me)
        phase = view["phase"]
        lairs = {q: "".join(f[0] if f is not None else "?" for f in lair)
                 for q, lair in enumerate(view["lairs"])}
        feathers = view["feathers"][me] if view["feathers"] is not None else 0
        animal = view["animals"][me] or "?"
        nugget = self.locate(state, me, lairs)
        elsewhere = nugget is not None and nugget[0] != me
        unknown = any("?" in s for s in lairs.values())
        legal_set = set(legal)
        card = view["victory_card"]
        active = card if view["victory_played"][me] is not None else None
        if phase == "choose animal":
            offered = view["offered"]
            if len(offered) == 2:
                rank = [ANIMAL_RANK.index(a) if a in ANIMAL_RANK else 99 for a in offered]
                return A_OPT1 if rank[1] < rank[0] else A_OPT0
            return A_OPT0
        if A_OPT0 in legal_set and A_OPT1 in legal_set:
            if view["decision"] == "suspicion":
                mine = nugget is not None and not elsewhere
                dare = card == "Daredevil" and feathers == 0
                return A_OPT1 if (mine or dare) and feathers == 0 else A_OPT0
            return A_OPT1 if feathers >= 2 else A_OPT0

        def meddle_play() -> int | None:
            if elsewhere:
                for k in STEALS:
                    if A_PLAY + k in legal_set:
                        return A_PLAY + k
            preen_at = 1 if card == "Clean slate" else (3 if card == "Daredevil" else 2)
            if feathers >= preen_at and A_PLAY + PREEN in legal_set:
                return A_PLAY + PREEN
            if A_VICTORY in legal_set and victory_ready(view, me, lairs):
                return A_VICTORY
            searching = nugget is None and unknown
            if searching or card == "Hoarder":              # Hoarder: stones from the nest
                if animal in (("Owl", "Magpie") if searching else ("Magpie",)) \
                        and A_ABILITY in legal_set:
                    return A_ABILITY
                if A_PLAY + NEST_DIVE in legal_set:
                    return A_PLAY + NEST_DIVE
                recycle = [a for a in legal if A_RECYCLE <= a < A_DISCARD]
                if recycle:
                    return recycle[0]
            if searching:
                for k in LOOKS:
                    if A_PLAY + k in legal_set and (k != DO_I_HAVE_IT or "?" in lairs.get(me, "")):
                        return A_PLAY + k
            return None

        if A_MEDDLE in legal_set:
            return A_MEDDLE if meddle_play() is not None else A_SLEEP
        if phase == "Meddling":
            a = meddle_play()
            return a if a is not None else (A_PASS if A_PASS in legal_set else legal[0])
        if phase == "instant reactions":
            for k, ok in ((CHANCE, elsewhere), (GLANCE, nugget is None and unknown)):
                if ok and A_PLAY + k in legal_set:
                    return A_PLAY + k
            return A_PASS if A_PASS in legal_set else legal[0]
        if phase.startswith("Raven: face-down"):
            for k in (CHANCE, NO_HARD_FEELINGS):
                if elsewhere and A_PLAY + k in legal_set:
                    return A_PLAY + k
            return A_PASS if A_PASS in legal_set else legal[0]
        if A_FEATHER in legal_set and feathers > 0:
            return A_FEATHER
        cards = [a - A_DISCARD for a in legal if A_DISCARD <= a < A_PLAYER]
        stones = [a for a in legal if a >= A_STONE]
        if view["decision"] == "place":
            return max(stones)          # leave a new stone at the end, where it arrived
        if cards and (A_FEATHER in legal_set or phase == "hand limit" or not stones):
            if phase == "Hello! discard" and A_PASS in legal_set:
                return A_PASS
            return A_DISCARD + min(cards, key=CARD_VALUE_ORDER.index)
        if stones or A_NEST in legal_set:
            if phase.startswith("Raven: grab"):
                guess = self.grab_guess(state, me, lairs, legal_set)
                if guess is not None:
                    return guess
            return self._stone(phase, me, lairs, nugget, stones, legal_set,
                               card == "Fool's gold", active == "Fool's gold")
        targets = [a - A_PLAYER for a in legal if A_PLAYER <= a < A_NEST]
        if targets:
            if elsewhere and nugget[0] in targets:
                return A_PLAYER + nugget[0]
            return A_PLAYER + max(targets, key=lambda q: (len(lairs.get(q, "")), -q))
        return A_PASS if A_PASS in legal_set else legal[0]

    def locate(self, state: pyspiel.State, me: int,
               lairs: dict[int, str]) -> tuple[int, int] | None:
        """Where I take the Gold Nugget to be: (seat, slot) of a lair stone,
        or None.  Here: a stone I have seen as the nugget."""
        return next(((q, s.index("N")) for q, s in lairs.items() if "N" in s), None)

    def grab_guess(self, state: pyspiel.State, me: int, lairs: dict[int, str],
                   legal_set: set[int]) -> int | None:
        """The final grab, or None for the rules of :meth:`_stone` (here: None)."""
        return None

    @staticmethod
    def _stone(phase: str, me: int, lairs: dict[int, str], nugget: tuple[int, int] | None,
               stones: list[int], legal_set: set[int], keep_traps: bool = False,
               grab_trap: bool = False) -> int:
        def face(a: int) -> tuple[int, str]:
            q, i = divmod(a - A_STONE, MAX_STONES)
            s = lairs.get(q, "")
            return q, s[i] if i < len(s) else "?"

        grab = phase.startswith("Raven: grab")
        if nugget is not None and A_STONE + MAX_STONES * nugget[0] + nugget[1] in legal_set \
                and (nugget[0] != me or grab):
            return A_STONE + MAX_STONES * nugget[0] + nugget[1]
        if grab:
            traps = [a for a in stones if face(a) == (me, "t")]
            if grab_trap and traps:
                return traps[0]
            unknown = [a for a in stones if face(a)[1] == "?"]
            if unknown:
                return max(unknown, key=lambda a: (lairs[face(a)[0]].count("?"), -a))
            return A_NEST if A_NEST in legal_set else stones[0]
        safe = [a for a in stones if not (face(a)[0] == me and face(a)[1] == "N")] or stones
        if stones and all(face(a)[0] == me for a in stones):
            order = {"t": 2.5 if keep_traps else 0, "n": 1, "?": 2, "N": 3}
            return min(safe, key=lambda a: (order.get(face(a)[1], 2), a))

        def rank(a: int) -> tuple[int, int]:
            q, f = face(a)
            return ((0 if q != me else 1) if f == "?" else 3, a)
        best = min(safe, key=rank) if safe else None
        if best is not None and rank(best)[0] < 3:
            return best
        if A_NEST in legal_set:
            return A_NEST
        return best if best is not None else min(legal_set)


class GoldNuggetBeliefBot(GoldNuggetHeuristicBot):
    """The heuristic driven by the nugget-location belief
    (``games.gold_nugget.beliefs``): the resampler's marginal of where the
    Gold Nugget is, from ``worlds`` worlds of my information set.

    * the nugget counts as *located* at a lair stone whose probability is at
      least ``locate`` (the heuristic then steals or guards it as if seen);
    * the final grab takes the option most likely to be the nugget: a lair
      stone with probability P, or the nest with P(nest) / stones in the nest
      (a nest grab is a random nest stone).

    Deterministic and stateless: the worlds' seeds come from a splitmix64
    stream seeded with my information key, so the same information state
    gives the same choice (``seed`` is accepted and ignored).  With a
    ``move_budget`` the worlds stop at the move's deadline and the belief
    is their marginal (none drawn: the plain heuristic's choice), so a move
    that reaches the cap depends on the machine's speed.
    """

    def __init__(self, game: pyspiel.Game, seed: int | None = 0, worlds: int = 48,
                 locate: float = 0.6, move_budget: float | None = None,
                 budget_clock: str = "cpu"):
        super().__init__(game, seed, move_budget, budget_clock)
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds must be an int >= 1, got {worlds!r}")
        if not 0.0 < locate <= 1.0:
            raise ValueError(f"locate must be in (0, 1], got {locate!r}")
        self.worlds = worlds
        self.locate_at = float(locate)

    def location_probs(self, state: pyspiel.State, me: int) -> dict[tuple, float]:
        """P(location) over ``("lair", seat, slot)`` / ``("nest",)`` from my
        information set (engine worlds, seeded by my information key)."""
        from games.gold_nugget.beliefs import gold_nugget_location
        from src_cy.rng import SplitMix64
        engine = state.engine
        rng = SplitMix64(engine.py_info_key(me))
        counts: dict[tuple, int] = {}
        drawn = 0
        for _ in range(self.worlds):
            world = resample_by(engine, me, rng.next(), self.deadline)
            if world is None:
                break
            loc = gold_nugget_location(world)
            counts[loc] = counts.get(loc, 0) + 1
            drawn += 1
        return {k: v / drawn for k, v in counts.items()}

    def locate(self, state: pyspiel.State, me: int,
               lairs: dict[int, str]) -> tuple[int, int] | None:
        seen = super().locate(state, me, lairs)
        if seen is not None or not any("?" in s for s in lairs.values()):
            return seen
        probs = self.location_probs(state, me)
        if not probs:           # the move's budget ran out before a world
            return None
        best = max(probs, key=lambda k: (probs[k], k))
        if best[0] == "lair" and probs[best] >= self.locate_at:
            return best[1], best[2]
        return None

    def grab_guess(self, state: pyspiel.State, me: int, lairs: dict[int, str],
                   legal_set: set[int]) -> int | None:
        view = state.engine.player_view(me)
        if view["victory_card"] == "Fool's gold" and view["victory_played"][me] is not None:
            return None     # the heuristic's rule: grab my own located trap
        probs = self.location_probs(state, me)
        nest = sum(1 for a in legal_set if a == A_NEST)
        options = []
        for loc, p in probs.items():
            if loc[0] == "lair":
                a = A_STONE + MAX_STONES * loc[1] + loc[2]
                if a in legal_set:
                    options.append((p, -a, a))
            elif nest:
                options.append((p / max(1, view["nest_stones"]), -A_NEST, A_NEST))
        return max(options)[2] if options else None
