# cython: language_level=3
"""Ardillas del Bosque rendering: names, the typed player view
(``ArdillasView``, ``view.py``), action names, information-state and
observation strings and the tensors, rendered from an ``ArdillasRules`` state
(``rules.pxd``), its event log and its history.  ``ArdillasEngine``'s methods
(``engine.pyx``) are one-line calls into these functions."""
from libc.stdint cimport uint8_t

from src_cy.engine cimport CHANCE_PLAYER
from src_cy.ardillas_del_bosque.actions cimport (
    NK, A_PILE, A_TAKE, A_KEEP, A_NPLACE, A_INDEX, A_PAIR, A_NEST, A_BEETLE, A_SNAKE_UP,
    A_SNAKE_DOWN, NUM_ACTIONS)
from src_cy.ardillas_del_bosque.catalog cimport *
from src_cy.ardillas_del_bosque.rules cimport ArdillasRules, popc
from src_cy.events cimport Event

from src_cy.ardillas_del_bosque.view import ArdillasView, Token

KIND_NAMES = ("walnut", "almond", "hazelnut", "peanut", "chestnut", "squirrel", "poo")
ANIMAL_NAMES = ("bear", "lynx", "golden_eagle", "ant", "lizard",
                "wild_boar", "fox", "owl", "dung_beetle", "snake")
PHASE_NAMES = ("deal", "autumn-draw", "autumn-place", "night-keep", "night-place",
               "winter-draw", "bear-flip", "bear-draw", "lynx-pile", "lynx-pick",
               "golden-eagle", "ant-nest", "ant-decide", "lizard-split-dest",
               "lizard-split-size", "lizard-pair", "lizard-take", "boar-pile",
               "boar-order", "fox", "owl", "dung-beetle", "snake", "end", "boards")
BOARD_NAMES = tuple(f"{ANIMAL_NAMES[b]}/{ANIMAL_NAMES[b + 5]}" for b in range(5))


def check_player(ArdillasRules e, int player) -> None:
    """Raise ValueError unless `player` is a seat of `e`."""
    if not 0 <= player < e.N:
        raise ValueError(f"player must be in [0, {e.N - 1}], got {player}")


def _token(ArdillasRules e, int o, int player):
    known = player < 0 or e.s.known[o] & (PUB | (1 << player))
    return Token(o // NK, o % NK, KIND_NAMES[e.s.kind[o]] if known else None,
                 bool(e.s.up[o]))


def _animal_name(ArdillasRules e, int board):
    if e.king < 0 and e.s.animal_of[board] < 0:
        return None
    return ANIMAL_NAMES[e.board_animal(board)]


def make_view(ArdillasRules e, int player) -> ArdillasView:
    """What `player` knows now in `e` (player -1: the whole table, every
    face shown), unchecked (``ArdillasEngine.player_view`` checks)."""
    ph = e.s.phase
    holding = None
    if ph == PH_APLACE and e.s.pend >= 0 and (player < 0 or e.s.cur == player):
        holding = _token(e, e.s.pend, player)
    liz = ()
    if ph == PH_LIZ_SIZE:
        liz = (int(e.s.liz_b),)
    elif ph == PH_LIZ_TAKE:
        liz = tuple(int(x) for x in (e.s.liz_a, e.s.liz_b) if x >= 0)
    boar = ph == PH_BOAR_PICK
    own = e.s.hand[player] if player >= 0 else 0
    return ArdillasView(
        player=player,
        phase=PHASE_NAMES[ph],
        current_player=e.current_player(),
        turn=e.s.cur,
        night=bool(e.night),
        king=ANIMAL_NAMES[e.king] if e.king >= 0 else None,
        board_animals=tuple(_animal_name(e, b) for b in range(e.B)),
        hand=tuple(KIND_NAMES[k] for k in range(NK) if own & (1 << k)),
        holding=holding,
        piles=tuple(tuple(_token(e, e.s.pile[h][i], player)
                          for i in range(e.s.psize[h] - 1, -1, -1))
                    for h in range(e.H)),
        nests=tuple(tuple(_token(e, e.s.nest[q][i], player)
                          for i in range(e.s.nsize[q])) for q in range(e.N)),
        active=tuple(bool(e.s.active[q]) for q in range(e.N)),
        focus_pile=e.s.ppile if e.s.ppile >= 0 else None,
        lizard_piles=liz,
        boar_remaining=tuple(_token(e, e.s.boar_rem[i], player)
                             for i in range(e.s.boar_n)) if boar else (),
        boar_placed=tuple(_token(e, e.s.boar_new[i], player)
                          for i in range(e.s.boar_out)) if boar else (),
    )


def action_to_string(ArdillasRules e, int player, int action) -> str:
    """Human-readable action (chance outcomes are kinds drawn)."""
    if player == CHANCE_PLAYER:
        if e.s.phase == PH_BOARDS and 0 <= action < 5:
            return f"board {e.s.nboards}: {BOARD_NAMES[action]}"
        return f"draw {KIND_NAMES[action]}" if 0 <= action < NK else f"chance {action}"
    if A_PILE <= action < A_TAKE:
        return f"pile h{action - A_PILE}"
    if action == A_TAKE:
        return "ant: take"
    if A_KEEP <= action < A_NPLACE:
        return f"keep {KIND_NAMES[action - A_KEEP]}"
    if A_NPLACE <= action < A_INDEX:
        k, h = divmod(action - A_NPLACE, 10)
        return f"place {KIND_NAMES[k]} on h{h}"
    if A_INDEX <= action < A_PAIR:
        return f"index {action - A_INDEX}"
    if A_PAIR <= action < A_NEST:
        a, b = divmod(action - A_PAIR, 10)
        return f"lizard flip h{a}+h{b}"
    if A_NEST <= action < A_BEETLE:
        t, c = divmod(action - A_NEST, 12)
        what = KIND_NAMES[c] if c < NK else f"hidden#{c - NK}"
        return f"nest p{t}: {what}"
    if A_BEETLE <= action < A_SNAKE_UP:
        a, b = divmod(action - A_BEETLE, 5)
        return f"poo p{a}->p{b}"
    if A_SNAKE_UP <= action < A_SNAKE_DOWN:
        return f"snake: throw {KIND_NAMES[action - A_SNAKE_UP]}"
    if A_SNAKE_DOWN <= action < NUM_ACTIONS:
        return f"snake: throw hidden#{action - A_SNAKE_DOWN}"
    return f"action {action}"


def _event_text(ArdillasRules e, int i, int player):
    cdef Event ev = e.log[i]
    see = player < 0 or (ev.seers & (1 << player))
    if not ev.pub and not see:
        return None
    who = f"p{ev.actor}"
    tok = ""
    if ev.secret >= 0:
        o = ev.secret
        own = f"p{o // NK}" if o // NK < e.N else f"z{o // NK - e.N}"
        tok = f"{own}#{o % NK}" + (f":{KIND_NAMES[e.s.kind[o]]}" if see else "")
    t = ev.kind
    if t == E_DEAL:
        return f"deal {tok} to h{ev.a}"
    if t == E_DEAL_REMOVED:
        return f"deal {tok} removed unseen"
    if t == E_ADRAW:
        return f"{who} takes {tok}"
    if t == E_PLACE:
        return f"{who} hides {tok} on h{ev.a}"
    if t == E_KEEP:
        return f"{who} keeps {tok}"
    if t == E_DRAW:
        return f"{who} draws {tok} from h{ev.a} (depth {ev.b})"
    if t == E_FLIP:
        return f"{who} flips h{ev.a}"
    if t == E_EXPOSE:
        return f"top of h{ev.a} shows {tok}"
    if t == E_LOOK:
        return f"{who} looks through h{ev.a}"
    if t == E_SEE:
        return f"{who} sees h{ev.a}[{ev.b}] = {tok}"
    if t == E_EAGLE:
        return f"{who} eagle-draws {tok} from h{ev.a}"
    if t == E_ANT_NEST:
        return f"{who} ant nest h{ev.a}"
    if t == E_PEEK:
        return f"{who} peeks {tok} on h{ev.a}"
    if t == E_ANT_MOVE:
        return f"{who} moves {tok} h{ev.a}->h{ev.b}"
    if t == E_SPLIT:
        return f"{who} splits {ev.c} from h{ev.a} to h{ev.b}"
    if t == E_LIZ_FLIP:
        return f"{who} lizard flips h{ev.a}, h{ev.b}"
    if t == E_BOAR_PICK:
        return f"{who} boar puts {tok} at {ev.b}"
    if t == E_BOAR_DONE:
        return f"{who} boar flips h{ev.a}"
    if t == E_FOX:
        return f"{who} fox takes {tok} from p{ev.a}"
    if t == E_OWL:
        return f"{who} owl removes {tok} from p{ev.a}"
    if t == E_BEETLE:
        return f"{who} moves poo {tok} p{ev.a}->p{ev.b}"
    if t == E_SNAKE:
        return f"{who} throws {tok}"
    if t == E_ELIM:
        return f"{who} leaves the woods"
    if t == E_REVEAL:
        return f"reveal {tok}"
    if t == E_ANIMAL:
        return f"{who} wakes {ANIMAL_NAMES[ev.a]} (board {ev.b})"
    if t == E_END:
        return "end"
    if t == E_BOARD:
        return f"board {ev.a} is the {BOARD_NAMES[ev.b]} board"
    if t == E_LIZ_DEST:
        return f"{who} lizard splits h{ev.a} onto h{ev.b}"
    return f"event {t}"


def info_string(ArdillasRules e, int player) -> str:
    """Perfect recall: everything `player` observed, in order."""
    check_player(e, player)
    cdef int own = e.s.hand[player]
    hand = (",".join(KIND_NAMES[k] for k in range(NK) if own & (1 << k)) if e.night
            else str(popc(own)))
    lines = [f"p{player} hand={hand}"]
    for i in range(e.s.nlog):
        txt = _event_text(e, i, player)
        if txt is not None:
            lines.append(txt)
    return "\n".join(lines)


def _hand_str(ArdillasRules e, view) -> str:
    if e.night:
        return ",".join(view.hand)
    return str(len(view.hand))


def _tok_text(t, int nplayers) -> str:
    who = f"p{t.owner}" if t.owner < nplayers else f"z{t.owner - nplayers}"
    return f"{who}#{t.ordinal}:{t.kind if t.kind is not None else '?'}"


def _view_text(ArdillasRules e, view) -> str:
    rows = []
    for h, pile in enumerate(view.piles):
        animal = view.board_animals[h // e.hp] or "?"
        rows.append(f"h{h}({animal}): " + " ".join(
            _tok_text(t, e.N) + ("^" if t.face_up else "") for t in pile))
    for q, nest in enumerate(view.nests):
        out = "" if view.active[q] else " [out]"
        rows.append(f"nest p{q}{out}: " + " ".join(
            _tok_text(t, e.N) + ("" if t.face_up else "(down)") for t in nest))
    return "\n".join(rows)


def obs_string(ArdillasRules e, int player) -> str:
    """Current view of `player`: piles, nests, own hand, phase."""
    check_player(e, player)
    view = make_view(e, player)
    holding = f" holding={_tok_text(view.holding, e.N)}" if view.holding else ""
    return (f"p{player} phase={view.phase} cur=p{view.turn} "
            f"hand={_hand_str(e, view)}{holding}\n" + _view_text(e, view))


def render(ArdillasRules e) -> str:
    """The whole board, all faces shown."""
    return (f"phase={PHASE_NAMES[e.s.phase]} cur={e.current_player()}\n"
            + _view_text(e, make_view(e, -1)))


def _tensor_size(ArdillasRules e) -> int:
    per = 1 + e.H + e.N + 1 + 1 + 1 + NK + 1 + 1
    return e.B * NK * per + NPHASES + (e.N + 1) + e.N + NK + e.N + e.H + 2


def info_tensor_size(ArdillasRules e) -> int:
    """The observation tensor, then one slot per history step (see docs)."""
    return _tensor_size(e) + e.max_len * (CODE_HI + CODE_LO)


def obs_tensor_size(ArdillasRules e) -> int:
    return _tensor_size(e)


def fill_obs_tensor(ArdillasRules e, int player, float[:] out) -> None:
    cdef int o, i, k, idx = 0, per, h, q
    cdef uint8_t bit = <uint8_t>(1 << player)
    check_player(e, player)
    per = 1 + e.H + e.N + 1 + 1 + 1 + NK + 1 + 1
    for q in range(e.B):
        for i in range(NK):
            o = q * NK + i
            if e.s.kind[o] >= 0 and e.s.loc[o] != LOC_HAND:
                if e.s.loc[o] < e.H:
                    out[idx + 1 + e.s.loc[o]] = 1.0
                    for k in range(e.s.psize[e.s.loc[o]]):
                        if e.s.pile[e.s.loc[o]][k] == o:
                            out[idx + per - 3] = (k + 1) / <float>MAXT
                elif e.s.loc[o] == LOC_REMOVED:
                    out[idx + 1 + e.H + e.N] = 1.0
                else:
                    out[idx + 1 + e.H + e.s.loc[o] - LOC_NEST] = 1.0
                out[idx + 2 + e.H + e.N] = e.s.up[o]
                if e.s.known[o] & (PUB | bit):
                    out[idx + 3 + e.H + e.N + e.s.kind[o]] = 1.0
                    out[idx + per - 2] = 1.0
                for k in range(e.s.boar_n):
                    if e.s.boar_rem[k] == o and e.s.phase == PH_BOAR_PICK:
                        out[idx + per - 1] = 1.0
            elif e.s.kind[o] >= 0:
                out[idx] = 1.0
            idx += per
    out[idx + e.s.phase] = 1.0
    idx += NPHASES
    k = e.current_player()
    out[idx + (k if k >= 0 else e.N)] = 1.0
    idx += e.N + 1
    out[idx + player] = 1.0
    idx += e.N
    for k in range(NK):
        if e.s.hand[player] & (1 << k):
            out[idx + k] = 1.0
    idx += NK
    for k in range(e.N):
        out[idx + k] = e.s.active[k]
    idx += e.N
    if e.s.ppile >= 0:
        out[idx + e.s.ppile] = 1.0
    idx += e.H
    # The Lizard's piles: (pile + 1) / H, so no pile is 0 and every value is in [0, 1].
    out[idx] = (e.s.liz_a + 1) / <float>e.H
    out[idx + 1] = (e.s.liz_b + 1) / <float>e.H


def step_code(ArdillasRules e, int step, int player) -> int:
    """History step `step` as `player` saw it, a code in [0, 342): a player
    action's id (318 actions), except another player's night keep (331) or
    night hide on h (332 + h), whose kind is hidden; chance: the board
    drawn (318 + board), the player's own autumn draw (323 + kind), any
    other draw (330, unseen)."""
    cdef int tag = e.s.step_tag[step], a = e.hist[step]
    if tag == TAG_BOARD:
        return C_BOARD + a
    if tag == TAG_DEAL:
        return C_HIDDEN
    if tag >= TAG_ADRAW:
        return C_SEEN_KIND + a if tag - TAG_ADRAW == player else C_HIDDEN
    if tag != player and A_KEEP <= a < A_NPLACE:
        return C_KEEP
    if tag != player and A_NPLACE <= a < A_INDEX:
        return C_NPLACE + (a - A_NPLACE) % 10
    return a


def fill_info_tensor(ArdillasRules e, int player, out) -> None:
    """Information-state tensor of `player` into float32 `out`: the
    observation tensor, then per history step the one-hot pair
    (code // 32, code % 32) of ``step_code`` (perfect recall)."""
    cdef int base = _tensor_size(e), t, c, width = CODE_HI + CODE_LO
    fill_obs_tensor(e, player, out)
    for t in range(min(<int>e.hist.size(), e.max_len)):
        c = step_code(e, t, player)
        out[base + t * width + c // CODE_LO] = 1.0
        out[base + t * width + CODE_HI + c % CODE_LO] = 1.0
