# cython: language_level=3
"""Kuhn and Leduc poker rendering over a ``KuhnRules`` / ``LeducRules`` state
(``rules.pxd``): action names, OpenSpiel's information-state and observation
strings and tensors.  The engines' methods (``engine.pyx``) are one-line
calls into these functions."""
from src_cy.engine cimport CHANCE_PLAYER
from src_cy.poker.actions cimport KUHN_PASS, KUHN_BET, LEDUC_NUM_ACTIONS, LEDUC_CALL, LEDUC_RAISE
from src_cy.poker.catalog cimport INVALID_CARD
from src_cy.poker.rules cimport KuhnRules, LeducRules

KUHN_ACTION_NAMES = ("Pass", "Bet")
LEDUC_ACTION_NAMES = ("Fold", "Call", "Raise")


def check_player(e, int player) -> None:
    """Raise ValueError unless `player` is a seat of the engine `e`."""
    if not 0 <= player < e.num_players:
        raise ValueError(f"player must be in [0, {e.num_players - 1}], got {player}")


def _fmt_number(double x) -> str:
    """absl-style number formatting (integers without a decimal point)."""
    if x == <long>x:
        return str(<long>x)
    return f"{x:.6g}"


# ---------------------------------------------------------------- Kuhn
def kuhn_action_to_string(KuhnRules e, int player, int action) -> str:
    """OpenSpiel's action string (chance outcomes: "Deal:<card>")."""
    if player == CHANCE_PLAYER:
        return f"Deal:{action}"
    return KUHN_ACTION_NAMES[KUHN_PASS] if action == KUHN_PASS else KUHN_ACTION_NAMES[KUHN_BET]


def _kuhn_betting(KuhnRules e) -> str:
    return "".join("b" if e.d.hist[i] == KUHN_BET else "p"
                   for i in range(e.d.n, e.d.hlen))


def kuhn_info_string(KuhnRules e, int player) -> str:
    """OpenSpiel's information_state_string(player)."""
    check_player(e, player)
    card = str(e.d.hist[player]) if e.d.hlen > player else ""
    return card + _kuhn_betting(e)


def kuhn_obs_string(KuhnRules e, int player) -> str:
    """OpenSpiel's observation_string(player)."""
    check_player(e, player)
    if e.d.hlen <= player:
        return ""
    return str(e.d.hist[player]) + "".join(str(e.d.ante[p]) for p in range(e.d.n))


def kuhn_info_tensor_size(KuhnRules e) -> int:
    """Length of OpenSpiel's Kuhn information-state tensor."""
    return 6 * e.d.n - 1


def kuhn_obs_tensor_size(KuhnRules e) -> int:
    """Length of OpenSpiel's Kuhn observation tensor."""
    return 3 * e.d.n + 1


def kuhn_render(KuhnRules e) -> str:
    """The deal and the betting (all cards shown)."""
    n = e.d.n
    deal = " ".join(str(e.d.hist[i]) for i in range(min(n, e.d.hlen)))
    bets = _kuhn_betting(e)
    return deal + (" " + bets if e.d.hlen > n else "")


def kuhn_fill_info_tensor(KuhnRules e, int player, out) -> None:
    """OpenSpiel's information-state tensor of `player` into zeroed `out`."""
    check_player(e, player)
    n = e.d.n
    out[player] = 1
    if e.d.hlen > player:
        out[n + e.d.hist[player]] = 1
    for i in range(n, e.d.hlen):
        out[2 * n + 1 + 2 * (i - n) + e.d.hist[i]] = 1


def kuhn_fill_obs_tensor(KuhnRules e, int player, out) -> None:
    """OpenSpiel's observation tensor of `player` into zeroed `out`."""
    check_player(e, player)
    n = e.d.n
    out[player] = 1
    if e.d.hlen > player:
        out[n + e.d.hist[player]] = 1
    for p in range(n):
        out[2 * n + 1 + p] = e.d.ante[p]


# ---------------------------------------------------------------- Leduc
def leduc_action_to_string(LeducRules e, int player, int action) -> str:
    """OpenSpiel's action string (ValueError for an unknown action)."""
    if player == CHANCE_PLAYER:
        return f"Chance outcome:{action}"
    if not 0 <= action < LEDUC_NUM_ACTIONS:
        raise ValueError(f"unknown leduc action {action}")
    return LEDUC_ACTION_NAMES[action]


def leduc_betting(LeducRules e, int round) -> list:
    """Actions of betting round 1 or 2."""
    if round == 1:
        return [e.d.r1[i] for i in range(e.d.r1len)]
    if round == 2:
        return [e.d.r2[i] for i in range(e.d.r2len)]
    raise ValueError(f"round must be 1 or 2, got {round}")


def leduc_info_tensor_size(LeducRules e) -> int:
    """Length of OpenSpiel's Leduc information-state tensor."""
    return e.d.n + 2 * e.d.total_cards + 2 * 2 * (3 * e.d.n - 2)


def leduc_obs_tensor_size(LeducRules e) -> int:
    """Length of OpenSpiel's Leduc observation tensor."""
    return 2 * e.d.n + 2 * e.d.total_cards


def _leduc_public_part(LeducRules e) -> str:
    n = e.d.n
    s = (f"[Round {e.d.round}][Player: {e.d.cur}][Pot: {e.d.pot}]"
         f"[Money: {' '.join(_fmt_number(e.d.money[p]) for p in range(n))}]")
    if e.d.public_card != INVALID_CARD:
        s += f"[Public: {e.d.public_card}]"
    return s


def leduc_info_string(LeducRules e, int player) -> str:
    """OpenSpiel's information_state_string(player)."""
    check_player(e, player)
    r1 = " ".join(str(a) for a in leduc_betting(e, 1))
    r2 = " ".join(str(a) for a in leduc_betting(e, 2))
    return (f"[Observer: {player}][Private: {e.d.priv[player]}]" + _leduc_public_part(e)
            + f"[Round1: {r1}][Round2: {r2}]")


def leduc_obs_string(LeducRules e, int player) -> str:
    """OpenSpiel's observation_string(player)."""
    check_player(e, player)
    antes = " ".join(str(e.d.ante[p]) for p in range(e.d.n))
    return (f"[Observer: {player}][Private: {e.d.priv[player]}]" + _leduc_public_part(e)
            + f"[Ante: {antes}]")


def leduc_render(LeducRules e) -> str:
    """OpenSpiel's ToString of the state (all cards shown)."""
    n = e.d.n
    names = LEDUC_ACTION_NAMES
    return (f"Round: {e.d.round}\nPlayer: {e.d.cur}\nPot: {e.d.pot}\n"
            f"Money: {' '.join(_fmt_number(e.d.money[p]) for p in range(n))}\n"
            f"Cards (public, players): {e.d.public_card} "
            f"{' '.join(str(e.d.priv[p]) for p in range(n))}\n"
            f"Round 1 sequence: {', '.join(names[a] for a in leduc_betting(e, 1))}\n"
            f"Round 2 sequence: {', '.join(names[a] for a in leduc_betting(e, 2))}\n")


def _leduc_fill_cards(LeducRules e, int player, out) -> int:
    n, tc = e.d.n, e.d.total_cards
    out[player] = 1
    if e.d.priv[player] != INVALID_CARD:
        out[n + e.d.priv[player]] = 1
    if e.d.public_card != INVALID_CARD:
        out[n + tc + e.d.public_card] = 1
    return n + 2 * tc


def leduc_fill_info_tensor(LeducRules e, int player, out) -> None:
    """OpenSpiel's information-state tensor of `player` into zeroed `out`."""
    check_player(e, player)
    base = _leduc_fill_cards(e, player, out)
    per_round = 3 * e.d.n - 2
    for r, seq in enumerate((leduc_betting(e, 1), leduc_betting(e, 2))):
        for i, a in enumerate(seq):
            if a == LEDUC_CALL:
                out[base + 2 * (r * per_round + i)] = 1
            elif a == LEDUC_RAISE:
                out[base + 2 * (r * per_round + i) + 1] = 1


def leduc_fill_obs_tensor(LeducRules e, int player, out) -> None:
    """OpenSpiel's observation tensor of `player` into zeroed `out`."""
    check_player(e, player)
    base = _leduc_fill_cards(e, player, out)
    for p in range(e.d.n):
        out[base + p] = e.d.ante[p]
