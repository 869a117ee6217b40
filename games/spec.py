"""Game specs: everything the library knows about one game, in one place.

Each game module (``games/<game>.py``) registers one :class:`GameSpec` with
:func:`register_spec`; solvers, bots, rollouts, policy tables and
experiments look a game up with :func:`get_spec` / :func:`find_spec` and never
switch on game names.

Solver-side objects (heuristic bots, rollout policies, root-action grouping,
the policy-table entry, the belief model, MCCFR abstractions, the ``best`` bot's
options, the terminal renderer) are referenced by *factories*: plain functions that import the code they
need when called, so that ``import games`` loads only the games (engines and
adapters), never the search code.

Importing this module imports the ``games`` package first (Python imports
a package before its submodules), so every built-in game's spec is
registered before :func:`get_spec` can be called.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import importlib
from contextlib import AbstractContextManager
from typing import Any, Callable, Mapping, Sequence

import pyspiel

from games.interfaces import Renderer

Features = Callable[[pyspiel.State, int], Mapping[str, Any]]


@dataclass(frozen=True)
class TableSpec:
    """How the policy tables (``experiments.policy_tables``) solve and describe a game.

    ``features(state, player)`` must be a function of ``player``'s
    information only; ``feature_doc`` says what each feature means.
    """

    name: str
    load: Callable[[str], pyspiel.Game]           # preset name -> game
    features: Features                             # (state, player) -> situation features
    feature_doc: Mapping[str, str]                 # feature name -> meaning
    presets: tuple[str, ...] = ("mini",)
    cfr_iterations: int = 1000                     # default CFR+ budget
    mccfr_iterations: int = 200_000                # default MCCFR budget when the tree is too big
    mccfr_scheme: str = "external"                 # "outcome" where external sampling explodes
    max_nodes: int = 2_000_000
    notes: str = ""
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name or not callable(self.load) or not callable(self.features):
            raise ValueError(f"invalid table entry for {self.name!r}: needs a name, "
                             f"load and features")


@dataclass(frozen=True)
class BenchRow:
    """One row of a benchmark (``GameSpec.bench``): a label, the game string,
    and an optional ``setting()`` returning a context manager to measure in."""

    label: str
    game: str
    setting: Callable[[], AbstractContextManager] | None = None


def bench_rows(benchmark: str) -> list[BenchRow]:
    """Every registered game's rows of ``benchmark``, in registration order."""
    return [row for spec in specs() for row in spec.bench.get(benchmark, ())]


@dataclass(frozen=True)
class GameSpec:
    """One game as the library sees it.

    Attributes:
      name: the pyspiel short name.
      presets: parameter dicts by preset name; ``default`` and ``mini`` at least.
      engine: ``engine(game)`` -> a goldspiel engine at ``game``'s initial
        state, or None when the game (e.g. these parameters) has none.  The
        engine fast path of every solver starts here (or at ``state.engine``,
        which an engine-backed game's states hold).
      player_view: ``player_view(state, player)`` -> what ``player`` knows
        now, as typed fields (None: the game has no view).
      heuristic: ``heuristic(game, seed=..., move_budget=None,
        budget_clock="cpu", **options)`` -> the game's rule-based
        ``pyspiel.Bot`` (every bot takes a move budget, docs/ai.md; a
        ``games.interfaces.RuleBot`` does).  The spec's own
        ``bots`` take the same options.
      rollout: ``rollout()`` -> a ``src_cy.ismcts.RolloutPolicy`` for the
        engine path of ``ISMCTSBot(rollout="heuristic")``.
      slow_rollout: ``slow_rollout()`` -> ``policy(state, sorted_legal,
        rng)``, the pyspiel twin of ``rollout`` (same choice from the same
        ``SplitMix64`` draws).  A game with a leaf evaluation accepts
        ``rollout(cutoff=N)`` / ``slow_rollout(cutoff=N)`` (``ISMCTSBot(...,
        rollout_cutoff=N)``): the policy's ``leaf_value`` ends rollouts.
      root_candidates: ``root_candidates()`` -> ``fn(state) -> actions``,
        the root actions a search considers (``root_candidates="game"``).
      table: ``table()`` -> the :class:`TableSpec` of the policy tables.
      belief: ``belief()`` -> the game's ``solvers.beliefs.BeliefModel``
        (``belief(state, player)`` over the game's hidden variables, and
        what a resampled world realises), used by
        ``solvers.beliefs.belief`` and belief-weighted determinization;
        defined in ``games/<game>_beliefs.py``.  None: no model.
      best: ``best(game)`` -> the ISMCTS options (a dict) of the game's
        ``best`` bot for these parameters (e.g. the player count), its
        strongest measured configuration within 0.1 s of CPU per move
        (``solvers.bots.make_bot("best", ...)``, ``docs/ai.md``).  None: the
        game has no ``best`` bot.
      bots: more bots of this game only, by name: ``factory(game,
        seed=..., **options)`` (``solvers.bots.make_bot`` finds them).
      abstraction: ``abstraction()`` -> ``solvers.abstractions.GameAbstractions``,
        the game's named information and action abstractions for MCCFR
        (MCCFR, policy files and policy bots find them by name); None: none.
      renderer: ``renderer()`` -> the game's ``games.interfaces.Renderer``:
        one seat's screen, event wording, move names and end summary for a
        person playing in a terminal (``experiments.play``), written from the
        seat's player view; defined in ``games/<game>/render.py``.  None: the
        generic ``Renderer`` (the plain observation string).
      team_rounds: ``team_rounds()`` -> ``fn(terminal_state)`` -> per finished
        round, per seat, ``(role, whether the seat's team won the round)``:
        games of hidden teams (Saboteur), where one seat's score mixes its
        team's luck; ``experiments.strength`` reports team wins per role from
        it.  None: no teams.
      rules_doc: path of the rules document, relative to the repository.
      bench: the game's rows in each benchmark of ``experiments/bench/``, by
        benchmark name (``"engines"``, ``"search"``, ``"resample"``): a
        sequence of ``BenchRow`` (label, game string, and an optional
        ``setting()`` context manager the row is measured inside, e.g. a
        resampler option switched off for both sides).  The benchmarks read
        only these, so a new game's rows live in its own folder.
      params: the game's parameter table (``games.params.ParamTable``:
        defaults, ranges, docs); None for games OpenSpiel defines (poker).
    """

    name: str
    presets: Mapping[str, Mapping[str, Any]]
    engine: Callable[[pyspiel.Game], Any] | None = None
    player_view: Callable[[pyspiel.State, int], Any] | None = None
    heuristic: Callable[..., pyspiel.Bot] | None = None
    rollout: Callable[[], Any] | None = None
    slow_rollout: Callable[[], Callable] | None = None
    root_candidates: Callable[[], Callable] | None = None
    table: Callable[[], TableSpec] | None = None
    belief: Callable[[], Any] | None = None
    best: Callable[[pyspiel.Game], Mapping[str, Any]] | None = None
    bots: Mapping[str, Callable[..., pyspiel.Bot]] = field(default_factory=dict)
    abstraction: Callable[[], Any] | None = None
    renderer: Callable[[], Renderer] | None = None
    team_rounds: Callable[[], Callable[[pyspiel.State], list]] | None = None
    rules_doc: str = ""
    params: Any = None
    bench: Mapping[str, Sequence["BenchRow"]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"GameSpec name must be a non-empty str, got {self.name!r}")
        for preset in ("default", "mini"):
            if preset not in self.presets:
                raise ValueError(f"GameSpec {self.name!r} has no {preset!r} preset; "
                                 f"presets: {sorted(self.presets)}")
        for key, value in self.presets.items():
            if not isinstance(value, Mapping):
                raise ValueError(f"GameSpec {self.name!r}: preset {key!r} is not a "
                                 f"parameter mapping")
        for attr in ("engine", "player_view", "heuristic", "rollout", "slow_rollout",
                     "root_candidates", "table", "belief", "abstraction", "best",
                     "renderer"):
            value = getattr(self, attr)
            if value is not None and not callable(value):
                raise ValueError(f"GameSpec {self.name!r}: {attr} must be callable or None")
        if self.params is not None and getattr(self.params, "game", None) != self.name:
            raise ValueError(f"GameSpec {self.name!r}: params is not the parameter table "
                             f"of {self.name!r}")
        for key, rows in self.bench.items():
            if not all(isinstance(r, BenchRow) for r in rows):
                raise ValueError(f"GameSpec {self.name!r}: bench[{key!r}] must hold BenchRows")
        for key, value in self.bots.items():
            if not callable(value):
                raise ValueError(f"GameSpec {self.name!r}: bot {key!r} is not callable")

    def load(self, preset: str = "default") -> pyspiel.Game:
        """``pyspiel.load_game(name, presets[preset])``."""
        if preset not in self.presets:
            raise ValueError(f"{self.name} has no preset {preset!r}; "
                             f"presets: {', '.join(sorted(self.presets))}")
        return pyspiel.load_game(self.name, dict(self.presets[preset]))


def lazy(target: str, call: bool = False) -> Callable[..., Any]:
    """A spec factory for ``"module:name"`` that imports it only when called.

    The factory returns the named object (a model, a table entry, a function)
    or, with ``call=True``, calls it with the factory's own arguments (a bot
    class with ``(game, **options)``, a renderer or rollout class).  Imports
    on call are what keep ``import games`` free of AI and solver code.
    """
    module, sep, name = target.partition(":")
    if not module or not sep or not name:
        raise ValueError(f"lazy target must be 'module:name', got {target!r}")

    def factory(*args: Any, **kwargs: Any) -> Any:
        obj = getattr(importlib.import_module(module), name)
        return obj(*args, **kwargs) if call else obj

    factory.__name__ = factory.__qualname__ = f"lazy({target!r})"
    factory.__doc__ = f"``{target}``{', called' if call else ''} (imported on call)."
    return factory


def engine_twin(make_policy: Callable[[], Any]) -> Callable[[Any, list[int], Any], int]:
    """The pyspiel twin of an engine rollout policy: ``twin(state, sorted_legal,
    rng)`` runs the policy (built by ``make_policy()`` on first use) on
    ``state.engine`` through ``src_cy.ismcts.rollout_choice`` and advances
    ``rng`` (a ``SplitMix64``) past its draws, so the pyspiel search makes
    the engine search's choices from the same draws."""
    policy = None

    def twin(state: Any, actions: list[int], rng: Any) -> int:
        nonlocal policy
        from src_cy.ismcts import rollout_choice
        if policy is None:
            policy = make_policy()
        action, rng.s = rollout_choice(policy, state.engine, actions, rng.s)
        return action

    return twin


_SPECS: dict[str, GameSpec] = {}


def register_spec(spec: GameSpec) -> GameSpec:
    """Register ``spec`` (once per game name) and return it."""
    if not isinstance(spec, GameSpec):
        raise ValueError(f"register_spec needs a GameSpec, got {type(spec).__name__}")
    old = _SPECS.get(spec.name)
    if old is not None and old is not spec:
        raise ValueError(f"a spec for {spec.name!r} is already registered")
    _SPECS[spec.name] = spec
    return spec


def get_spec(name: str) -> GameSpec:
    """The spec registered for the pyspiel short name ``name``."""
    if name not in _SPECS:
        raise ValueError(f"no game spec for {name!r}; games: {', '.join(sorted(_SPECS))}")
    return _SPECS[name]


def find_spec(game: pyspiel.Game | str) -> GameSpec | None:
    """The spec of ``game`` (a pyspiel game or a short name), or None."""
    name = game if isinstance(game, str) else game.get_type().short_name
    return _SPECS.get(name)


def specs() -> list[GameSpec]:
    """Every registered spec, in registration order (``games/__init__.py``'s)."""
    return list(_SPECS.values())


def game_engine(game: pyspiel.Game, use_engine: bool = True):
    """The engine fast path for ``game``: an engine at its initial state, or None.

    None when ``use_engine`` is False, the game has no spec, or its spec has
    no engine for these parameters.  This is the one place that decides.
    """
    if not use_engine:
        return None
    spec = find_spec(game)
    if spec is None or spec.engine is None:
        return None
    return spec.engine(game)


def state_engine(state: pyspiel.State, use_engine: bool = True):
    """The engine a pyspiel state runs on (``state.engine``), or None."""
    return getattr(state, "engine", None) if use_engine else None
