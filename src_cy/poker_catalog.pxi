# Kuhn and Leduc poker catalogue: the engines' constant tables (sizes,
# information-key tokens, stakes, names).  Included by src_cy/poker.pyx; the
# action layout is src_cy/poker_actions.pxd.

cdef enum:
    KUHN_MAX_HIST = 40
    LEDUC_MAX_HIST = 80
    LEDUC_MAX_SEQ = 3 * ENGINE_MAX_PLAYERS
    LEDUC_MAX_CARDS = 2 * (ENGINE_MAX_PLAYERS + 1)
    INVALID_CARD = -10000
    # Information-key tokens.
    TOK_ACTION = 0x100
    TOK_ALL_DEALT = 0x200
    TOK_PUBLIC_CARD = 0x300
    TOK_RESULT = 0x400
    TOK_CARD = 0x1000
    LEDUC_START_MONEY = 100
    LEDUC_MAX_RAISES = 2

KUHN_ACTION_NAMES = ("Pass", "Bet")
LEDUC_ACTION_NAMES = ("Fold", "Call", "Raise")
