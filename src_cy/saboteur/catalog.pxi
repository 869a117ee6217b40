# Saboteur card and table catalogue: C data only (declarations valid in a
# .pxd), included by ``rules.pxd`` so the engine and every Cython module
# that cimports it share one definition.  Each cimporting module gets its
# own read-only copy of the tables (``static const``).

cdef enum:
    # Card kinds: 0..15 tunnels (0..6 open paths, 7..15 dead ends), then the
    # action cards; see the kind table in ``games/saboteur/__init__.py``.
    NKINDS = 27
    NTUN = 16
    K_MAP = 16
    K_ROCK = 17
    K_BREAK = 18
    K_REPAIR = 21
    # Gold cards: 16 of 1, 8 of 2, 4 of 3 nuggets.
    NGOLD = 28

cdef extern from *:
    """
    /* Tunnel cards: open edges (N=1, E=2, S=4, W=8) as printed, and whether
       the edges connect to each other (open passage) or are dead-end stubs. */
    static const int SAB_TUN_EDGES[16] = {10, 5, 9, 3, 11, 7, 15, 1, 2, 3, 5, 9, 10, 7, 11, 15};
    static const int SAB_TUN_PASS[16] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    /* Full-deck count of each card kind. */
    static const int SAB_BASE_COUNT[27] = {3, 4, 4, 5, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                           6, 3, 3, 3, 3, 2, 2, 2, 1, 1, 1};
    /* Tools a repair card (kind 21 + r) mends: pickaxe=1, lamp=2, cart=4. */
    static const int SAB_REPAIR_MASK[6] = {1, 2, 4, 3, 5, 6};
    /* Goal identities: 0 treasure (cross), 1 stone N-E corner, 2 stone N-W. */
    static const int SAB_GOAL_EDGES[3] = {15, 3, 9};
    /* The six goal layouts: identity at the north, middle and south place. */
    static const int SAB_PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    /* Role cards dealt by player count: saboteurs, gold-diggers. */
    static const int SAB_ROLE_SAB[11] = {0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 4};
    static const int SAB_ROLE_DIG[11] = {0, 0, 0, 3, 4, 4, 5, 5, 6, 7, 7};
    /* Nuggets each winning saboteur gets, by number of saboteurs. */
    static const int SAB_SAB_PAY[5] = {0, 4, 3, 3, 2};
    /* Gold cards of 1, 2 and 3 nuggets. */
    static const int SAB_GOLD_COUNT[3] = {16, 8, 4};
    """
    const int TUN_EDGES "SAB_TUN_EDGES"[16]
    const int TUN_PASS "SAB_TUN_PASS"[16]
    const int BASE_COUNT "SAB_BASE_COUNT"[27]
    const int REPAIR_MASK "SAB_REPAIR_MASK"[6]
    const int GOAL_EDGES "SAB_GOAL_EDGES"[3]
    const int PERMS "SAB_PERMS"[6][3]
    const int ROLE_SAB "SAB_ROLE_SAB"[11]
    const int ROLE_DIG "SAB_ROLE_DIG"[11]
    const int SAB_PAY "SAB_SAB_PAY"[5]
    const int GOLD_COUNT "SAB_GOLD_COUNT"[3]


cdef inline int rot180(int m) noexcept nogil:
    """Open-edge mask of a card turned 180 degrees."""
    return ((m << 2) | (m >> 2)) & 15
