# Ardillas del Bosque rendering: action names, the player view, information-
# state and observation strings and the tensors (rendered from the view, the
# event log and the history).  Included by src_cy/ardillas_del_bosque/engine.pyx,
# whose engine methods call these functions.


def _ad_check_player(ArdillasEngine self, int player) -> None:
    if not 0 <= player < self.N:
        raise ValueError(f"player must be in [0, {self.N - 1}], got {player}")


def _ad_token(ArdillasEngine self, int o, int player):
    known = player < 0 or self.s.known[o] & (PUB | (1 << player))
    return Token(o // NK, o % NK, KIND_NAMES[self.s.kind[o]] if known else None,
                 bool(self.s.up[o]))


def _ad_animal_name(ArdillasEngine self, int board):
    if self.king < 0 and self.s.animal_of[board] < 0:
        return None
    return ANIMAL_NAMES[self.board_animal(board)]


def _ad_make_view(ArdillasEngine self, int player) -> ArdillasView:
    ph = self.s.phase
    holding = None
    if ph == PH_APLACE and self.s.pend >= 0 and (player < 0 or self.s.cur == player):
        holding = _ad_token(self, self.s.pend, player)
    liz = ()
    if ph == PH_LIZ_SIZE:
        liz = (int(self.s.liz_b),)
    elif ph == PH_LIZ_TAKE:
        liz = tuple(int(x) for x in (self.s.liz_a, self.s.liz_b) if x >= 0)
    boar = ph == PH_BOAR_PICK
    own = self.s.hand[player] if player >= 0 else 0
    return ArdillasView(
        player=player,
        phase=PHASE_NAMES[ph],
        current_player=self.current_player(),
        turn=self.s.cur,
        night=bool(self.night),
        king=ANIMAL_NAMES[self.king] if self.king >= 0 else None,
        board_animals=tuple(_ad_animal_name(self, b) for b in range(self.B)),
        hand=tuple(KIND_NAMES[k] for k in range(NK) if own & (1 << k)),
        holding=holding,
        piles=tuple(tuple(_ad_token(self, self.s.pile[h][i], player)
                          for i in range(self.s.psize[h] - 1, -1, -1))
                    for h in range(self.H)),
        nests=tuple(tuple(_ad_token(self, self.s.nest[q][i], player)
                          for i in range(self.s.nsize[q])) for q in range(self.N)),
        active=tuple(bool(self.s.active[q]) for q in range(self.N)),
        focus_pile=self.s.ppile if self.s.ppile >= 0 else None,
        lizard_piles=liz,
        boar_remaining=tuple(_ad_token(self, self.s.boar_rem[i], player)
                             for i in range(self.s.boar_n)) if boar else (),
        boar_placed=tuple(_ad_token(self, self.s.boar_new[i], player)
                          for i in range(self.s.boar_out)) if boar else (),
    )


def _ad_action_to_string(ArdillasEngine self, int player, int action) -> str:
    """Human-readable action (chance outcomes are kinds drawn)."""
    if player == CHANCE_PLAYER:
        if self.s.phase == PH_BOARDS and 0 <= action < 5:
            return f"board {self.s.nboards}: {BOARD_NAMES[action]}"
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


def _ad_event_text(ArdillasEngine self, int i, int player):
    cdef Ev e = self.log[i]
    see = player < 0 or (e.seers & PUB) or (e.seers & (1 << player))
    if not e.pub and not see:
        return None
    who = f"p{e.actor}"
    tok = ""
    if e.obj >= 0:
        o = e.obj
        own = f"p{o // NK}" if o // NK < self.N else f"z{o // NK - self.N}"
        tok = f"{own}#{o % NK}" + (f":{KIND_NAMES[self.s.kind[o]]}" if see else "")
    t = e.typ
    if t == E_DEAL:
        return f"deal {tok} to h{e.a}"
    if t == E_DEAL_REMOVED:
        return f"deal {tok} removed unseen"
    if t == E_ADRAW:
        return f"{who} takes {tok}"
    if t == E_PLACE:
        return f"{who} hides {tok} on h{e.a}"
    if t == E_KEEP:
        return f"{who} keeps {tok}"
    if t == E_DRAW:
        return f"{who} draws {tok} from h{e.a} (depth {e.b})"
    if t == E_FLIP:
        return f"{who} flips h{e.a}"
    if t == E_EXPOSE:
        return f"top of h{e.a} shows {tok}"
    if t == E_LOOK:
        return f"{who} looks through h{e.a}"
    if t == E_SEE:
        return f"{who} sees h{e.a}[{e.b}] = {tok}"
    if t == E_EAGLE:
        return f"{who} eagle-draws {tok} from h{e.a}"
    if t == E_ANT_NEST:
        return f"{who} ant nest h{e.a}"
    if t == E_PEEK:
        return f"{who} peeks {tok} on h{e.a}"
    if t == E_ANT_MOVE:
        return f"{who} moves {tok} h{e.a}->h{e.b}"
    if t == E_SPLIT:
        return f"{who} splits {e.c} from h{e.a} to h{e.b}"
    if t == E_LIZ_FLIP:
        return f"{who} lizard flips h{e.a}, h{e.b}"
    if t == E_BOAR_PICK:
        return f"{who} boar puts {tok} at {e.b}"
    if t == E_BOAR_DONE:
        return f"{who} boar flips h{e.a}"
    if t == E_FOX:
        return f"{who} fox takes {tok} from p{e.a}"
    if t == E_OWL:
        return f"{who} owl removes {tok} from p{e.a}"
    if t == E_BEETLE:
        return f"{who} moves poo {tok} p{e.a}->p{e.b}"
    if t == E_SNAKE:
        return f"{who} throws {tok}"
    if t == E_ELIM:
        return f"{who} leaves the woods"
    if t == E_REVEAL:
        return f"reveal {tok}"
    if t == E_ANIMAL:
        return f"{who} wakes {ANIMAL_NAMES[e.a]} (board {e.b})"
    if t == E_END:
        return "end"
    if t == E_BOARD:
        return f"board {e.a} is the {BOARD_NAMES[e.b]} board"
    if t == E_LIZ_DEST:
        return f"{who} lizard splits h{e.a} onto h{e.b}"
    return f"event {t}"


def _ad_info_string(ArdillasEngine self, int player) -> str:
    """Perfect recall: everything `player` observed, in order."""
    _ad_check_player(self, player)
    cdef int own = self.s.hand[player]
    hand = (",".join(KIND_NAMES[k] for k in range(NK) if own & (1 << k)) if self.night
            else str(popc(own)))
    lines = [f"p{player} hand={hand}"]
    for i in range(self.s.nlog):
        txt = _ad_event_text(self, i, player)
        if txt is not None:
            lines.append(txt)
    return "\n".join(lines)


def _ad_hand_str(ArdillasEngine self, view) -> str:
    if self.night:
        return ",".join(view.hand)
    return str(len(view.hand))


def _ad_tok_text(t, int nplayers) -> str:
    who = f"p{t.owner}" if t.owner < nplayers else f"z{t.owner - nplayers}"
    return f"{who}#{t.ordinal}:{t.kind if t.kind is not None else '?'}"


def _ad_view_text(ArdillasEngine self, view) -> str:
    rows = []
    for h, pile in enumerate(view.piles):
        animal = view.board_animals[h // self.hp] or "?"
        rows.append(f"h{h}({animal}): " + " ".join(
            _ad_tok_text(t, self.N) + ("^" if t.face_up else "") for t in pile))
    for q, nest in enumerate(view.nests):
        out = "" if view.active[q] else " [out]"
        rows.append(f"nest p{q}{out}: " + " ".join(
            _ad_tok_text(t, self.N) + ("" if t.face_up else "(down)") for t in nest))
    return "\n".join(rows)


def _ad_obs_string(ArdillasEngine self, int player) -> str:
    """Current view of `player`: piles, nests, own hand, phase."""
    _ad_check_player(self, player)
    view = _ad_make_view(self, player)
    holding = f" holding={_ad_tok_text(view.holding, self.N)}" if view.holding else ""
    return (f"p{player} phase={view.phase} cur=p{view.turn} "
            f"hand={_ad_hand_str(self, view)}{holding}\n" + _ad_view_text(self, view))


def _ad_render(ArdillasEngine self) -> str:
    """The whole board, all faces shown."""
    return (f"phase={PHASE_NAMES[self.s.phase]} cur={self.current_player()}\n"
            + _ad_view_text(self, _ad_make_view(self, -1)))


def _ad_tensor_size(ArdillasEngine self) -> int:
    per = 1 + self.H + self.N + 1 + 1 + 1 + NK + 1 + 1
    return self.B * NK * per + NPHASES + (self.N + 1) + self.N + NK + self.N + self.H + 2


def _ad_info_tensor_size(ArdillasEngine self) -> int:
    """The observation tensor, then one slot per history step (see docs)."""
    return _ad_tensor_size(self) + self.max_len * (CODE_HI + CODE_LO)


def _ad_obs_tensor_size(ArdillasEngine self) -> int:
    return _ad_tensor_size(self)


def _ad_fill(ArdillasEngine self, int player, float[:] out) -> None:
    cdef int o, i, k, idx = 0, per, h, q
    cdef uint8_t bit = <uint8_t>(1 << player)
    _ad_check_player(self, player)
    per = 1 + self.H + self.N + 1 + 1 + 1 + NK + 1 + 1
    for q in range(self.B):
        for i in range(NK):
            o = q * NK + i
            if self.s.kind[o] >= 0 and self.s.loc[o] != LOC_HAND:
                if self.s.loc[o] < self.H:
                    out[idx + 1 + self.s.loc[o]] = 1.0
                    for k in range(self.s.psize[self.s.loc[o]]):
                        if self.s.pile[self.s.loc[o]][k] == o:
                            out[idx + per - 3] = (k + 1) / <float>MAXT
                elif self.s.loc[o] == LOC_REMOVED:
                    out[idx + 1 + self.H + self.N] = 1.0
                else:
                    out[idx + 1 + self.H + self.s.loc[o] - LOC_NEST] = 1.0
                out[idx + 2 + self.H + self.N] = self.s.up[o]
                if self.s.known[o] & (PUB | bit):
                    out[idx + 3 + self.H + self.N + self.s.kind[o]] = 1.0
                    out[idx + per - 2] = 1.0
                for k in range(self.s.boar_n):
                    if self.s.boar_rem[k] == o and self.s.phase == PH_BOAR_PICK:
                        out[idx + per - 1] = 1.0
            elif self.s.kind[o] >= 0:
                out[idx] = 1.0
            idx += per
    out[idx + self.s.phase] = 1.0
    idx += NPHASES
    k = self.current_player()
    out[idx + (k if k >= 0 else self.N)] = 1.0
    idx += self.N + 1
    out[idx + player] = 1.0
    idx += self.N
    for k in range(NK):
        if self.s.hand[player] & (1 << k):
            out[idx + k] = 1.0
    idx += NK
    for k in range(self.N):
        out[idx + k] = self.s.active[k]
    idx += self.N
    if self.s.ppile >= 0:
        out[idx + self.s.ppile] = 1.0
    idx += self.H
    # The Lizard's piles: (pile + 1) / H, so no pile is 0 and every value is in [0, 1].
    out[idx] = (self.s.liz_a + 1) / <float>self.H
    out[idx + 1] = (self.s.liz_b + 1) / <float>self.H


def _ad_step_code(ArdillasEngine self, int step, int player) -> int:
    """History step `step` as `player` saw it, a code in [0, 342): a player
    action's id (318 actions), except another player's night keep (331) or
    night hide on h (332 + h), whose kind is hidden; chance: the board
    drawn (318 + board), the player's own autumn draw (323 + kind), any
    other draw (330, unseen)."""
    cdef int tag = self.s.step_tag[step], a = self.hist[step]
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


def _ad_fill_info_tensor(ArdillasEngine self, int player, out) -> None:
    """Information-state tensor of `player` into float32 `out`: the
    observation tensor, then per history step the one-hot pair
    (code // 32, code % 32) of ``step_code`` (perfect recall)."""
    cdef int base = _ad_tensor_size(self), t, c, width = CODE_HI + CODE_LO
    _ad_fill(self, player, out)
    for t in range(min(<int>self.hist.size(), self.max_len)):
        c = _ad_step_code(self, t, player)
        out[base + t * width + c // CODE_LO] = 1.0
        out[base + t * width + CODE_HI + c % CODE_LO] = 1.0
