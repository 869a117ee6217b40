"""Thin pyspiel adapter over a Cython rules engine.

Every goldspiel game is one ``src_cy`` engine plus a module in ``games/`` that
declares its ``pyspiel.GameType`` and its parameter table
(``games.params.ParamTable``, which validates the parameters) and builds
engines.
The classes here turn such an engine into a ``pyspiel.Game``/``pyspiel.State``
pair; they hold no rules.

An engine class (a subclass of ``src_cy.engine.Engine``) must provide, besides
the ``cdef`` interface, these Python methods:

``action_to_string(player, action)``, ``info_string(player)``,
``obs_string(player)``, ``render()``, ``info_tensor_size()``,
``obs_tensor_size()``, ``fill_info_tensor(player, out)``,
``fill_obs_tensor(player, out)`` (``out`` a float32 array), ``dump()`` -> bytes
and ``load(data)`` (snapshot of the whole state; ``load`` validates), and
``check_invariants()`` (raises ``ValueError`` naming a broken invariant).
"""
from __future__ import annotations

import binascii
import zlib
from typing import Any, Callable, Mapping

import numpy as np
import pyspiel

from games.params import ParameterError, ParamTable  # noqa: F401  (ParameterError re-exported)

SERIAL_MAGIC = "goldspiel-state"
SERIAL_VERSION = 2


def engine_game_type(long_name: str, params: ParamTable,
                     zero_sum: bool = True) -> pyspiel.GameType:
    """The GameType every goldspiel game shares: sequential, explicit chance,
    imperfect information, terminal rewards, strings and tensors provided;
    the short name, player range (``players``) and parameter defaults come
    from the table ``params``."""
    utility = (pyspiel.GameType.Utility.ZERO_SUM if zero_sum
               else pyspiel.GameType.Utility.GENERAL_SUM)
    return pyspiel.GameType(
        short_name=params.game,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=params["players"].hi,
        min_num_players=params["players"].lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params.defaults(),
    )


class _EngineObserver:
    """PyObserver over an engine: perfect recall -> information state."""

    def __init__(self, game: "EngineGame", perfect_recall: bool):
        self._perfect_recall = perfect_recall
        proto = game.make_engine()
        size = proto.info_tensor_size() if perfect_recall else proto.obs_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: "EngineState", player: int) -> None:
        self.tensor.fill(0.0)
        if self._perfect_recall:
            state.engine.fill_info_tensor(player, self.tensor)
        else:
            state.engine.fill_obs_tensor(player, self.tensor)

    def string_from(self, state: "EngineState", player: int) -> str:
        if self._perfect_recall:
            return state.engine.info_string(player)
        return state.engine.obs_string(player)


class EngineGame(pyspiel.Game):
    """Base pyspiel.Game for engine-backed games.

    Subclasses set ``GAME_TYPE`` and ``PARAMS`` (the game's parameter table)
    and implement ``_build(params)``, which receives every parameter checked
    against the table, checks what involves several parameters and returns
    ``(GameInfo, engine_factory)``.
    """

    GAME_TYPE: pyspiel.GameType
    PARAMS: ParamTable

    def __init__(self, params: Mapping[str, Any] | None = None):
        self.params: dict = {}
        self.params = self.PARAMS.validate(params)
        info, factory = self._build(self.params)
        self._factory: Callable[[], Any] = factory
        super().__init__(self.GAME_TYPE, info, dict(params or {}))
        self._constructed = True
        self._game_string = str(self)

    def __repr__(self) -> str:
        # A game whose parameters were refused never reached pyspiel's
        # constructor; its C++ side is empty, so pyspiel's own repr would
        # crash the process (pytest and debuggers show the half-built
        # ``self`` of the failing frame).
        if self._half_built():
            return f"<{type(self).__name__}: not constructed (its parameters were refused)>"
        return super().__repr__()

    def __str__(self) -> str:
        return repr(self) if self._half_built() else super().__str__()

    def __reduce__(self):
        # pyspiel pickles a game as its string and rebuilds only the C++ side
        # into a bare object, losing this object's attributes (``params``,
        # the engine factory); loading the string runs ``__init__``.
        return pyspiel.load_game, (self._game_string,)

    def _half_built(self) -> bool:
        """``__init__`` started (``params`` set) but never reached the end."""
        d = getattr(self, "__dict__", {})
        return "params" in d and not d.get("_constructed", False)

    def _build(self, params: dict):  # pragma: no cover - abstract
        raise NotImplementedError

    def make_engine(self):
        """A fresh engine at the initial state (the fast path for solvers)."""
        engine = self._factory()
        engine.game_string = self._game_string
        return engine

    def new_initial_state(self) -> "EngineState":
        return EngineState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _EngineObserver | None:
        """Observer for the information state (perfect recall) or the player's
        observation; None for factored (public-only or private-only) types,
        which the engines do not provide."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and not (
                iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            return None
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _EngineObserver(self, perfect_recall)

    def state_from_engine(self, engine) -> "EngineState":
        """A pyspiel state replaying ``engine``'s history (so ``history()`` is right)."""
        state = EngineState(self)
        for action in engine.py_history():
            state.apply_action(action)
        return state

    def deserialize_state(self, text: str) -> "EngineState":
        """Inverse of ``EngineState.serialize``; refuses malformed text."""
        return deserialize_state(self, text)


class EngineState(pyspiel.State):
    """pyspiel.State that forwards every call to its engine."""

    def __init__(self, game: EngineGame):
        super().__init__(game)
        self.engine = game.make_engine()

    def current_player(self) -> int:
        return self.engine.py_current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.engine.py_current_player():
            return []
        return self.engine.py_legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.engine.py_chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.engine.py_apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.engine.py_is_terminal()

    def returns(self) -> list[float]:
        return self.engine.py_returns()

    def __str__(self) -> str:
        return self.engine.render()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "EngineState":
        """A world drawn from ``player_id``'s information set (see docs).

        Successive calls on this state object for the same player, while the
        player's information set is unchanged (its info key and the player to
        move), pass the last world drawn to the engine, which may chain the
        next one from it (Gold Nugget, Gold Thief: ``set_resample_chain``): OpenSpiel's
        ISMCTSBot calls this once per simulation on the same root."""
        seed = int(probability_sampler() * 2.0 ** 53) if callable(probability_sampler) \
            else int(probability_sampler)
        key = (self.engine.py_info_key(player_id), self.engine.py_current_player())
        chains = self.__dict__.setdefault("_resample_chains", {})
        last = chains.get(player_id)
        world = self.resample(player_id, seed, last[1] if last and last[0] == key else None)
        chains[player_id] = (key, world.history())
        return world

    def resample(self, player: int, seed: int, prev: list[int] | None = None) -> "EngineState":
        """Seeded variant of ``resample_from_infostate``.

        The engine draws a whole history from ``player``'s information set;
        the world is that history replayed from the initial state, so its
        ``history()``, strings, tensors and keys are those of a real game.
        ``prev``: the last world's history drawn for this information set
        (never the true one), for engines that chain worlds; None (the
        default): a fresh draw, reproducible from ``seed`` alone.
        """
        world = self.get_game().new_initial_state()
        for action in self.engine.py_resample_history_from(player, seed, prev):
            world.apply_action(action)
        return world

    def serialize(self) -> str:
        """Plain versioned text: game, action history and a state snapshot, CRC-checked."""
        game = self.get_game()
        body = "\n".join([
            f"{SERIAL_MAGIC} {SERIAL_VERSION}",
            f"game={game}",
            "history=" + ",".join(str(a) for a in self.history()),
            "snapshot=" + binascii.hexlify(self.engine.dump()).decode(),
        ])
        return body + f"\ncrc32={zlib.crc32(body.encode()):08x}\n"


def deserialize_state(game: EngineGame, text: str) -> EngineState:
    """Parse ``EngineState.serialize`` output, refusing anything malformed."""
    if not isinstance(text, str):
        raise ValueError("serialized state must be a str")
    lines = text.strip("\n").split("\n")
    if len(lines) != 5:
        raise ValueError(f"malformed serialized state: expected 5 lines, got {len(lines)}")
    body = "\n".join(lines[:4])
    if not lines[4].startswith("crc32=") or lines[4][6:] != f"{zlib.crc32(body.encode()):08x}":
        raise ValueError("serialized state is corrupted: CRC mismatch")
    head = lines[0].split(" ")
    if len(head) != 2 or head[0] != SERIAL_MAGIC:
        raise ValueError("not a goldspiel serialized state (bad header)")
    if head[1] != str(SERIAL_VERSION):
        raise ValueError(f"unsupported serialization version {head[1]}; this is {SERIAL_VERSION}")
    fields = {}
    for line in lines[1:4]:
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"malformed line in serialized state: {line!r}")
        fields[key] = value
    if fields.get("game") != str(game):
        raise ValueError(f"serialized state is for {fields.get('game')!r}, not {game}")
    try:
        history = [int(a) for a in fields["history"].split(",")] if fields["history"] else []
        snapshot = binascii.unhexlify(fields["snapshot"])
    except (KeyError, ValueError, binascii.Error) as exc:
        raise ValueError(f"malformed serialized state: {exc}") from None
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    if snapshot != state.engine.dump():
        raise ValueError("serialized state is inconsistent: snapshot differs from replayed history")
    return state


def engine_of(game: EngineGame):
    """The engine factory of every engine-backed game's spec: ``game.make_engine()``."""
    return game.make_engine()


def view_of(state: EngineState, player: int):
    """The player-view accessor of every engine-backed game's spec."""
    return state.engine.player_view(player)
