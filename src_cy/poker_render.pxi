# Kuhn and Leduc poker rendering: action names, OpenSpiel's information-state
# and observation strings and tensors.  Included by src_cy/poker.pyx, whose
# engine methods call these functions.


def _fmt_number(double x) -> str:
    """absl-style number formatting (integers without a decimal point)."""
    if x == <long>x:
        return str(<long>x)
    return f"{x:.6g}"


# ---------------------------------------------------------------- Kuhn
def _kuhn_action_to_string(KuhnEngine self, int player, int action) -> str:
    if player == CHANCE_PLAYER:
        return f"Deal:{action}"
    return KUHN_ACTION_NAMES[KUHN_PASS] if action == KUHN_PASS else KUHN_ACTION_NAMES[KUHN_BET]


def _kuhn_betting(KuhnEngine self) -> str:
    return "".join("b" if self.d.hist[i] == KUHN_BET else "p"
                   for i in range(self.d.n, self.d.hlen))


def _kuhn_info_string(KuhnEngine self, int player) -> str:
    self._check_player(player)
    card = str(self.d.hist[player]) if self.d.hlen > player else ""
    return card + _kuhn_betting(self)


def _kuhn_obs_string(KuhnEngine self, int player) -> str:
    self._check_player(player)
    if self.d.hlen <= player:
        return ""
    return str(self.d.hist[player]) + "".join(str(self.d.ante[p]) for p in range(self.d.n))


def _kuhn_render(KuhnEngine self) -> str:
    n = self.d.n
    deal = " ".join(str(self.d.hist[i]) for i in range(min(n, self.d.hlen)))
    bets = _kuhn_betting(self)
    return deal + (" " + bets if self.d.hlen > n else "")


def _kuhn_fill_info_tensor(KuhnEngine self, int player, out) -> None:
    self._check_player(player)
    n = self.d.n
    out[player] = 1
    if self.d.hlen > player:
        out[n + self.d.hist[player]] = 1
    for i in range(n, self.d.hlen):
        out[2 * n + 1 + 2 * (i - n) + self.d.hist[i]] = 1


def _kuhn_fill_obs_tensor(KuhnEngine self, int player, out) -> None:
    self._check_player(player)
    n = self.d.n
    out[player] = 1
    if self.d.hlen > player:
        out[n + self.d.hist[player]] = 1
    for p in range(n):
        out[2 * n + 1 + p] = self.d.ante[p]


# ---------------------------------------------------------------- Leduc
def _leduc_action_to_string(LeducEngine self, int player, int action) -> str:
    if player == CHANCE_PLAYER:
        return f"Chance outcome:{action}"
    if not 0 <= action < LEDUC_NUM_ACTIONS:
        raise ValueError(f"unknown leduc action {action}")
    return LEDUC_ACTION_NAMES[action]


def _leduc_public_part(LeducEngine self) -> str:
    n = self.d.n
    s = (f"[Round {self.d.round}][Player: {self.d.cur}][Pot: {self.d.pot}]"
         f"[Money: {' '.join(_fmt_number(self.d.money[p]) for p in range(n))}]")
    if self.d.public_card != INVALID_CARD:
        s += f"[Public: {self.d.public_card}]"
    return s


def _leduc_info_string(LeducEngine self, int player) -> str:
    self._check_player(player)
    r1 = " ".join(str(a) for a in self.betting(1))
    r2 = " ".join(str(a) for a in self.betting(2))
    return (f"[Observer: {player}][Private: {self.d.priv[player]}]" + _leduc_public_part(self)
            + f"[Round1: {r1}][Round2: {r2}]")


def _leduc_obs_string(LeducEngine self, int player) -> str:
    self._check_player(player)
    antes = " ".join(str(self.d.ante[p]) for p in range(self.d.n))
    return (f"[Observer: {player}][Private: {self.d.priv[player]}]" + _leduc_public_part(self)
            + f"[Ante: {antes}]")


def _leduc_render(LeducEngine self) -> str:
    n = self.d.n
    names = LEDUC_ACTION_NAMES
    return (f"Round: {self.d.round}\nPlayer: {self.d.cur}\nPot: {self.d.pot}\n"
            f"Money: {' '.join(_fmt_number(self.d.money[p]) for p in range(n))}\n"
            f"Cards (public, players): {self.d.public_card} "
            f"{' '.join(str(self.d.priv[p]) for p in range(n))}\n"
            f"Round 1 sequence: {', '.join(names[a] for a in self.betting(1))}\n"
            f"Round 2 sequence: {', '.join(names[a] for a in self.betting(2))}\n")


def _leduc_fill_cards(LeducEngine self, int player, out) -> int:
    n, tc = self.d.n, self.d.total_cards
    out[player] = 1
    if self.d.priv[player] != INVALID_CARD:
        out[n + self.d.priv[player]] = 1
    if self.d.public_card != INVALID_CARD:
        out[n + tc + self.d.public_card] = 1
    return n + 2 * tc


def _leduc_fill_info_tensor(LeducEngine self, int player, out) -> None:
    self._check_player(player)
    base = _leduc_fill_cards(self, player, out)
    per_round = 3 * self.d.n - 2
    for r, seq in enumerate((self.betting(1), self.betting(2))):
        for i, a in enumerate(seq):
            if a == LEDUC_CALL:
                out[base + 2 * (r * per_round + i)] = 1
            elif a == LEDUC_RAISE:
                out[base + 2 * (r * per_round + i) + 1] = 1


def _leduc_fill_obs_tensor(LeducEngine self, int player, out) -> None:
    self._check_player(player)
    base = _leduc_fill_cards(self, player, out)
    for p in range(self.d.n):
        out[base + p] = self.d.ante[p]
