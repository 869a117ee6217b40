"""Play a goldspiel game against the AI in a terminal.

Example::

    python -m experiments.play --game gold_thief --players 3 --seat 0

You see only what your seat may see: the game's renderer
(``GameSpec.renderer``, found by :mod:`experiments.play_render`) writes your
screen from your seat's player view.  Every event you observe is announced
as it happens: opponents' moves and chance events appear exactly as your
information-state log records them, so hidden content (a card an opponent
drew, what they discarded) stays hidden.  Legal moves are numbered from 1
(moves that differ only in their target share a line): type a number or the
move's text (a unique prefix is enough); a decision with a single legal move
is played for you and announced.  ``?`` shows the commands and a short
rules and card summary (``games/<game>/rules_summary.txt``, package data),
``r`` a recap of what happened since your last move, ``b`` the board again,
``q`` quits; end of input ends the game.  At the end the screen explains the
score, showing what became public (every hidden goal, role, nest or lair).
"""
from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import Sequence, TextIO

import pyspiel

from experiments.botspec import game_string
from experiments.play_render import format_moves, new_events, renderer
from solvers.botspec import parse_lineup
from solvers.evaluate import BotSpec, spec
from src_cy.rng import SplitMix64, sample_sorted

# ISMCTS iterations per move of the default opponent: a few tenths of a
# second per move on the engines, so a person is not kept waiting.
DEFAULT_SIMULATIONS = 1000
# Lines a screen (board, moves and prompt) should fit: a 50-line terminal.
SCREEN_LINES = 50


def default_opponent(game_name: str) -> BotSpec:
    """The strongest bot the library has for ``game_name`` (short name).

    ``best`` wherever the game's spec has a configuration
    (``GameSpec.best``, listed by ``solvers.bots.best_games``; docs/ai.md);
    a game without one (Kuhn and Leduc poker) gets plain ISMCTS.
    """
    from solvers.bots import best_games
    if game_name in best_games():
        return spec("best")
    return spec("ismcts", max_simulations=DEFAULT_SIMULATIONS)


def _player(q: int, seat: int) -> str:
    return "you" if q == seat else f"P{q}"


def rules_summary(game_name: str) -> str | None:
    """The short rules and card summary bundled with the package for
    ``game_name`` (short name), or None when the game has none."""
    path = resources.files("games") / game_name / "rules_summary.txt"
    return path.read_text(encoding="utf-8") if path.is_file() else None


class Session:
    """One human seat against bots; reads moves from ``inp``, writes to ``out``."""

    def __init__(self, game: pyspiel.Game, seat: int, opponents: Sequence[BotSpec],
                 seed: int, inp: TextIO, out: TextIO):
        n = game.num_players()
        if not 0 <= seat < n:
            raise ValueError(f"--seat must be in 0..{n - 1} for {n} players, got {seat}")
        if not opponents:
            raise ValueError("no opponent bot given")
        if len(opponents) > n - 1:
            raise ValueError(f"{len(opponents)} opponents for {n - 1} opponent seats")
        self.game, self.seat, self.inp, self.out = game, seat, inp, out
        self.rng = SplitMix64(seed)
        pad = list(opponents) + [opponents[-1]] * (n - 1 - len(opponents))
        self.bots: dict[int, pyspiel.Bot] = {}
        self.labels: dict[int, str] = {}
        for q in range(n):
            if q != seat:
                b = pad.pop(0)
                self.bots[q] = b.build(game, self.rng.next())
                self.labels[q] = b.display
        self.state = game.new_initial_state()
        self.log = self.state.information_state_string(seat)
        self.short = game.get_type().short_name
        self.renderer = renderer(game)
        self.recent: list[str] = []      # events since the seat's last move

    def say(self, text: str = "") -> None:
        """Write one line to the player."""
        print(text, file=self.out)

    def announce(self, before: pyspiel.State, actor: int, action: int) -> None:
        """Print what the seat observed of ``action`` (already applied to self.state)."""
        log = self.state.information_state_string(self.seat)
        lines = new_events(self.log, log)
        self.log = log
        if lines is None:
            lines = [self._fallback(before, actor, action)]
        for line in lines:
            text = self.renderer.event_text(line, self.seat)
            self.recent.append(text)
            self.say(f"  > {text}")

    def _fallback(self, before: pyspiel.State, actor: int, action: int) -> str:
        """For a game whose information state is not an event log: the action's
        text when the seat can tell it from every alternative, else only that
        something it cannot see happened."""
        choices = ([a for a, _ in before.chance_outcomes()] if actor < 0
                   else before.legal_actions())
        mine = self.state.information_state_string(self.seat)
        for a in choices:
            if a != action:
                child = before.clone()
                child.apply_action(a)
                if child.information_state_string(self.seat) == mine:
                    return ("a chance event you cannot see" if actor < 0
                            else f"P{actor} makes a move you cannot see")
        text = before.action_to_string(actor, action)
        return f"chance: {text}" if actor < 0 else f"{_player(actor, self.seat)}: {text}"

    def apply(self, action: int) -> None:
        """Apply ``action`` (any player's or chance's), inform the bots, announce it."""
        before = self.state.clone()
        actor = self.state.current_player()
        if actor >= 0:
            for q, bot in self.bots.items():
                if q != actor:
                    bot.inform_action(self.state, actor, action)
        self.state.apply_action(action)
        self.announce(before, actor, action)

    def help(self) -> None:
        """Print the commands and the game's rules and card summary."""
        self.say(f"You are P{self.seat} in {self.game}.")
        self.say("Opponents: " + ", ".join(f"P{q} {lab}" for q, lab in self.labels.items()))
        self.say("Type the number of a move, or its text (a unique prefix is enough).")
        self.say("  ?  this help    r  recap since your last move    b  the board again"
                 "    q  quit")
        summary = rules_summary(self.short)
        if summary is not None:
            self.say(summary.rstrip("\n"))

    def recap(self) -> None:
        """Print every event announced since the seat's last move."""
        self.say("Since your last move:" if self.recent else "Nothing has happened yet.")
        for line in self.recent:
            self.say(f"  > {line}")

    def show_moves(self, names: list[str]) -> None:
        """The board and the numbered moves, in at most :data:`SCREEN_LINES`
        lines with the prompt when they fit there without the legend (which
        is then left to ``?``)."""
        view = self.renderer.screen(self.state, self.seat).splitlines()
        title = self.renderer.decision_title(self.state, self.seat)
        moves = [f"Your moves ({title}):" if title else "Your moves:"] + format_moves(names)
        if len(view) + len(moves) + 1 > SCREEN_LINES:
            short = [ln for ln in view if ln not in self.renderer.legend]
            if len(short) < len(view):
                view = short + ["(legend: type ?)"]
        for line in view + moves:
            self.say(line)

    def ask(self) -> int | None:
        """The human's move, or None to stop (``q`` or end of input)."""
        legal = self.state.legal_actions()
        names = self.renderer.move_labels(self.state, self.seat, legal)
        engine_names = [self.state.action_to_string(self.seat, a) for a in legal]
        self.show_moves(names)
        while True:
            self.out.write("your move (number or text, ? for help)> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say("")
                self.say("end of input: the game is abandoned, no result")
                return None
            text = line.strip()
            if not text:
                self.say("please type a move number, its text, ? or q")
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                self.say("you quit: the game is abandoned, no result")
                return None
            if low in ("?", "h", "help"):
                self.help()
                continue
            if low in ("b", "board"):
                self.show_moves(names)
                continue
            if low in ("r", "recap"):
                self.recap()
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.say(f"no move {k}: choose a number from 1 to {len(legal)}")
                continue
            exact = [a for a, nm, en in zip(legal, names, engine_names)
                     if low in (nm.lower(), en.lower())]
            if exact:
                return exact[0]
            pref = [(a, nm) for a, nm in zip(legal, names) if nm.lower().startswith(low)]
            if len(pref) == 1:
                return pref[0][0]
            if pref:
                self.say(f"{text!r} matches {len(pref)} moves: "
                         + "; ".join(nm for _, nm in pref[:6])
                         + ("; ..." if len(pref) > 6 else "") + " - be more precise")
            else:
                self.say(f"{text!r} is not a legal move; type a number from 1 to "
                         f"{len(legal)}, or ? for help")

    def advance(self) -> bool:
        """Play chance and the bots until the seat must move (True) or the
        game is over (False)."""
        state = self.state
        while not state.is_terminal():
            q = state.current_player()
            if state.is_chance_node():
                self.apply(sample_sorted(sorted(state.chance_outcomes()), self.rng))
            elif q == self.seat:
                legal = state.legal_actions()
                if len(legal) > 1:
                    return True
                name = self.renderer.move_labels(state, self.seat, legal)[0]
                self.say(f"  (your only move, played for you: {name})")
                self.apply(legal[0])
            else:
                self.apply(self.bots[q].step(state))
            state = self.state
        return False

    def run(self) -> bool:
        """Play to the end; False when the human stopped early."""
        self.say(f"goldspiel: {self.game}; you are P{self.seat}. Type ? for help.")
        self.say("Opponents: " + ", ".join(f"P{q} {lab}" for q, lab in self.labels.items()))
        while self.advance():
            action = self.ask()
            if action is None:
                return False
            self.recent = []
            self.apply(action)
        state = self.state
        returns = state.returns()
        top = max(returns)
        winners = [q for q, r in enumerate(returns) if abs(r - top) < 1e-9]
        self.say(self.renderer.screen(state, self.seat))
        for line in self.renderer.end_summary(state, self.seat):
            self.say(line)
        names = ", ".join(f"P{q}{' (you)' if q == self.seat else ''}" for q in winners)
        self.say("game over; returns: "
                 + ", ".join(f"P{q}{' (you)' if q == self.seat else ''} {r:+.3f}"
                             for q, r in enumerate(returns))
                 + ("; no winner: every return is equal" if len(winners) == len(returns)
                    and len(returns) > 1 else f"; winner(s): {names}"))
        return True


def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """Command line entry; ``stdin``/``stdout`` default to the process's."""
    inp = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gold_thief",
                    help="game name (e.g. saboteur) or a full game string")
    ap.add_argument("--players", type=int, default=None, help="players (game parameter)")
    ap.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    ap.add_argument("--opponents", default=None,
                    help="bot spec(s), comma-separated per opponent seat, each "
                         "name[:key=value...] (e.g. ismcts:max_simulations=300); "
                         "default: the strongest bot for the game")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        import games  # noqa: F401  (registers the goldspiel games)
        gs = game_string(args.game, args.players)
        try:
            game = pyspiel.load_game(gs)
        except (pyspiel.SpielError, RuntimeError) as exc:
            raise ValueError(f"cannot load game {gs!r}: {exc}") from None
        if args.opponents is None:
            opponents = [default_opponent(game.get_type().short_name)]
        else:
            opponents = parse_lineup(args.opponents)
        session = Session(game, args.seat, opponents, args.seed, inp, out)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr if stdout is None else out)
        return 2
    try:
        session.run()
    except KeyboardInterrupt:
        print("\ninterrupted: the game is abandoned, no result", file=out)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
