# Gold Thief catalogue: the engine's constants as C data (capacities, phases,
# effects, goal locations, event kinds), declarations valid in a .pxd:
# included by src_cy/gold_thief/rules.pxd, so every module that cimports the
# rules shares one definition.  Their names for people are in
# src_cy/gold_thief/rules.pyx (CARD_NAMES, EFFECT_NAMES, PHASE_NAMES); the
# action layout is src_cy/gold_thief/actions.pxd.

cdef enum:
    MAX_HAND = 64
    MAX_STACK = 48
    MAX_GOLD = 63

cdef enum:
    PH_FIRST = 0          # chance: first player
    PH_SETUP_GOALS = 1    # chance: initial goal deal
    PH_SETUP_CARDS = 2    # chance: initial card deal
    PH_NINJA = 3          # decision: pre-emptive Ninja scoring window
    PH_BIG_FLIP = 4       # decision: >big_pile gold, flip one goal
    PH_DRAW = 5           # chance: a card for draw_target
    PH_DEAL_GOAL = 6      # chance: a goal for goal_target
    PH_PLAY = 7           # decision: active player plays or ends turn
    PH_RESPOND = 8        # decision: response window
    PH_GIVE = 9           # decision: Witch victim chooses the card
    PH_FAERIE_DRAW = 10   # chance: Faerie's new goal
    PH_OVER = 11

cdef enum:
    E_THIEF = 0           # own-turn Thief: steal `amount` from victim
    E_RAID = 1            # Thief played as a raid on the thief
    E_WITCH_EXTRA = 2     # Witch as an extra Thief
    E_GUARD_GIFT = 3      # own-turn Guard: give 1 gold
    E_GUARD_CANCEL = 4    # Guard cancelling a theft
    E_WITCH_STEAL = 5     # own-turn Witch: steal a card
    E_FAERIE_CANCEL = 6   # Faerie cancelling a Guard or Witch

cdef enum:
    G_PILE = 0            # random part of the goal pile
    G_BOTTOM = 1          # under the pile (Faerie), drawn in order
    G_DOWN = 2            # face down in front of `goal_owner`
    G_UP = 3              # face up (scored) in front of `goal_owner`

cdef enum:
    EV_FIRST = 0
    EV_DEAL_GOAL = 1
    EV_DRAW = 2
    EV_RESHUFFLE = 3
    EV_PLAY = 4
    EV_PASS = 5
    EV_FLIP = 6
    EV_GIVE = 7
    EV_END_TURN = 8
    EV_FAERIE_GOAL = 9
    EV_GAME_END = 10
    EV_ASKED = 11         # private: a window reaches the actor
    EV_RESOLVE = 12       # public: an effect leaves the stack (b = outcome * 8 + kind)
    EV_SCORE = 13         # public: the active player starts scoring with b gold
    NUM_EV = 14

cdef enum:
    R_RESOLVES = 0
    R_WAITS = 1           # an add-on waits for the theft it follows
    R_CANCELLED = 2
