# cython: language_level=3
"""Gold Thief rendering declarations (the code is in ``render.pyx``): every
function takes a ``GoldThiefRules`` state; the engine's Python methods are
one-line calls into them."""
from src_cy.gold_thief.rules cimport GoldThiefRules

cpdef check_player(GoldThiefRules r, int player)
cpdef str action_to_string(GoldThiefRules r, int player, int action)
cpdef str goal_str(GoldThiefRules r, int g)
cpdef list visible_events(GoldThiefRules r, int player)
cpdef list hand(GoldThiefRules r, int player)
cpdef list goals_down(GoldThiefRules r, int player)
cpdef list goals_up(GoldThiefRules r, int player)
cpdef dict public_view(GoldThiefRules r)
cpdef str info_string(GoldThiefRules r, int player)
cpdef object player_view(GoldThiefRules r, int player)
cpdef str obs_string(GoldThiefRules r, int player)
cpdef str render_table(GoldThiefRules r)
cpdef int obs_tensor_size(GoldThiefRules r)
cpdef int event_slots(GoldThiefRules r)
cpdef int info_tensor_size(GoldThiefRules r)
cpdef fill_obs_tensor(GoldThiefRules r, int player, float[:] out)
cpdef fill_info_tensor(GoldThiefRules r, int player, float[:] out)
