# cython: language_level=3
"""The event record: one layout for every engine's event log.

An engine logs what happens as a sequence of these records and renders
information-state strings, observations and player views from them; the
resampler compares them with a player's view. Kinds and the meaning of
``a``/``b``/``c`` are the game's own (its ``catalog.pxi`` names them);
the fields' roles are shared:

- ``kind``: the game's event kind.
- ``actor``: the seat that acted, ``-1`` for chance or nobody.
- ``pub``: 1 if every player sees that the event happened (0: only
  ``seers`` do).
- ``a``, ``b``, ``c``: public details (a seat, a card, a goal, a cell, an
  action id), ``-1`` when unused.
- ``secret``: the private detail (a card type, a stone, a hidden object),
  ``-1`` when there is none.
- ``seers``: the players who see ``secret`` (bit ``q`` = seat ``q``).
"""
from libc.stdint cimport int8_t, int16_t, uint8_t, uint32_t

cdef struct Event:
    int16_t kind
    int8_t actor
    uint8_t pub
    int16_t a
    int16_t b
    int16_t c
    int16_t secret
    uint32_t seers

cdef enum:
    EVENT_NONE = -1          # an unused detail field
    SEERS_ALL = 0xFFFFFFFF   # every seat sees ``secret``
