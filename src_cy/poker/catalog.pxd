# cython: language_level=3
"""Kuhn and Leduc poker catalogue: the engines' constant tables (sizes,
information-key tokens, stakes) as C enums, cimported by the engines'
modules; the action names are in ``render.pyx``, the action layout in
``actions.pxd``."""
from src_cy.engine cimport ENGINE_MAX_PLAYERS

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
