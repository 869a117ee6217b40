# cython: language_level=3
"""Gold Thief resampler declarations: ``GoldThiefResampler`` draws a history
from one player's information set over a ``GoldThiefRules`` state (rules
doc, "Resampling"; the code is in ``resample.pyx``).  It holds only its work
space, so one resampler serves any state; ``engine.GoldThiefEngine`` keeps
one per engine."""
cimport cython
from libc.stdint cimport uint64_t
from libcpp.vector cimport vector

from src_cy.engine cimport Rng
from src_cy.events cimport Event
from src_cy.gold_thief.rules cimport GoldThiefRules, Consid, MAXP, NT, MAX_HAND, MAX_GOALS


cdef struct HChange:
    # A change the model made at event e of the view: object o (a card or a
    # goal) joins (d = 1) or leaves (d = -1) seat q's hand or face-down goals.
    int e
    int q
    int o
    int d


cdef struct ObjList:
    # A seat's modelled hand (card objects) or face-down goals (goal
    # objects), in order; a hand holds at most MAX_HAND, goals MAX_GOALS.
    int n
    int v[MAX_HAND]


cdef struct ModelPrefix:
    # ``build_model``'s walk of the kept view before its first step that may
    # draw at random (view event e): the scalars and fixed-size arrays (the
    # vectors are the resampler's pre_*)
    int e, g, no, nhl, ngl, prc, mask_q, mask_x
    double wfl, wfp
    int disc[NT]
    uint64_t used         # goal ids given (bit set)
    ObjList hand[MAXP]
    ObjList down[MAXP]


@cython.final
cdef class GoldThiefResampler:
    # set by ``draw``: True when the state was left at the world drawn
    cdef bint world_built
    # where the recorded replay stopped (``build_world``): TAIL_* and the seat
    cdef int tail_kind, tail_q
    # a recorded replay's public answer did not match its window seat
    cdef bint rec_bad
    # the window seats of the first recorded replay of the kept view and
    # where it stopped (``tail_kind``, ``tail_q``), valid while ws_rec_ok: a
    # function of the information set, so later draws of the view reuse them
    cdef vector[Consid] ws_rec_kept
    cdef bint ws_rec_ok
    # ``build_model``'s work space (kept so that its proposals do not allocate)
    cdef vector[int] ws_otype, ws_ogen, ws_gives, ws_faeries, ws_gdraws, ws_gid
    cdef vector[int] ws_pleft
    cdef vector[int] ws_bottom, ws_pool, ws_cand, ws_rem, ws_rcand, ws_rend, ws_rpick, ws_gstart
    cdef vector[uint64_t] ws_gmask
    # what ``model_weight`` reads: the hand and face-down goal changes, the
    # unseen Give decisions (e, victim), each generation's first pool and the
    # factors of w(h) known during the walk (log)
    cdef vector[HChange] ws_hl, ws_gl, ws_gv
    cdef vector[int] ws_pool0, ws_deck, ws_ttot, ws_midx
    # the sizes of the generations' first pools (ws_pool0), valid while
    # ws_tt0_ok (the same for every proposal of the kept view)
    cdef vector[int] ws_tt0
    cdef bint ws_tt0_ok
    cdef vector[Event] ws_mev
    cdef double ws_wfix
    cdef bint ws_flip_pending
    # ``schedule``: model_weight's order of steps, valid while ws_sched_ok
    # (for the sizes of ws_hl, ws_gl, st.rec and ws_gv in ws_sched_n, the
    # view kept and the recorded seats ws_sched_rec)
    cdef vector[int] ws_sched
    cdef vector[Consid] ws_sched_rec
    cdef int ws_sched_n[4]
    cdef bint ws_sched_ok
    cdef ObjList ws_hand[MAXP]
    cdef ObjList ws_down[MAXP]
    # ``build_model``'s walk before the first random step, valid while
    # ws_pre_ok (``model_events`` resets it; see ``keep_prefix``)
    cdef bint ws_pre_ok
    cdef ModelPrefix ws_pre
    cdef vector[int] pre_ot, pre_og, pre_gs, pre_pool, pre_pleft, pre_pool0
    cdef vector[int] pre_gives, pre_faeries, pre_gdraws, pre_gid, pre_bottom
    cdef vector[uint64_t] pre_gmask
    # deck generations in the view ``model_events`` kept (reshuffles + 1),
    # the draws in it (the card objects ``build_model`` makes) and its plays
    # and gives (a bound on ``build_model``'s backward-kernel records)
    cdef int ws_ng, ws_nd, ws_ntake
    # the view ``draw`` kept (``same_view``): for ws_view_player, the
    # parameters (``params_sig``), the player's information key, the plays
    # of the others in the view and the last step `p` can see; ws_mev_ok:
    # ``model_events`` done for it
    cdef bint ws_view_ok, ws_mev_ok
    cdef int ws_view_player, ws_view_plays, ws_view_last
    cdef int ws_view_sig[11 + NT + 2 * MAX_GOALS]
    cdef uint64_t ws_view_key
    # ``draw``'s and ``stage2_weighed``'s work space (no allocation per
    # resample once grown)
    cdef vector[int] ws_T, ws_meta, ws_h
    cdef vector[Event] ws_want
    cdef vector[int] s2_draw, s2_gdraw, s2_faerie, s2_give, s2_refh
    cdef vector[int] s2_sd, s2_sg, s2_sf, s2_sv, s2_off
    cdef vector[double] s2_cw, s2_cwm
    # log W = log w(h) + log r(u|h) - log q(u) of the world stage 2 returned
    cdef double s2_lw
    # chaining (``set_resample_chain``): the last stage-2 world drawn for the
    # kept view (``ch_h``, its log weight ``ch_lw``; valid while ch_ok) and
    # the model path of the chain's accepted proposal not yet replayed
    cdef bint ch_ok
    cdef vector[int] ch_h
    cdef double ch_lw
    cdef vector[int] ch_d, ch_g, ch_f, ch_v

    cdef void draw(self, GoldThiefRules st, int player, Rng* rng, vector[int]* out) noexcept nogil
    cdef void draw_from(self, GoldThiefRules st, int player, Rng* rng, const vector[int]* prev,
                        vector[int]* out) noexcept nogil
    cdef int replay_verdict(self, GoldThiefRules st, int player, vector[Event]* want,
                            vector[int]* T, vector[int]* meta, int last, int verdict,
                            bint weighed, double lwm, double* lw) noexcept nogil
    cdef void chain(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                    vector[int]* T, vector[int]* meta, int last, vector[int]* out) noexcept nogil
    cdef bint same_view(self, GoldThiefRules st, int p) noexcept nogil
    cdef void model_events(self, GoldThiefRules st, int p, vector[Event]* want) noexcept nogil
    cdef bint propose(self, GoldThiefRules st, int player, Rng* rng, vector[int]* draw_t,
                      vector[int]* gdraw_g, vector[int]* faerie_g, vector[int]* give_t,
                      double* lrq) noexcept nogil
    cdef int stage2_replayed(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                             vector[int]* T, vector[int]* meta, int last,
                             vector[int]* out) noexcept nogil
    cdef int stage2_weighed(self, GoldThiefRules st, int player, Rng* rng, vector[Event]* want,
                            vector[int]* T, vector[int]* meta, int last,
                            vector[int]* out) noexcept nogil
    cdef void resample(self, GoldThiefRules st, int player, Rng* rng) noexcept nogil
    cdef void resample_from(self, GoldThiefRules st, int player, Rng* rng,
                            const vector[int]* prev) noexcept nogil
    cdef bint check_events(self, GoldThiefRules st, int p, vector[Event]* want, size_t* logpos,
                           int* k) noexcept nogil
    cdef int node_options(self, GoldThiefRules st, int p, vector[int]* T, vector[int]* meta, int i,
                          int* nexti, vector[Event]* want, int k, int* odr, int* outs,
                          double* probs, double* acc) noexcept nogil
    cdef bint walk_world(self, GoldThiefRules st, int p, Rng* rng, vector[int]* T,
                         vector[int]* meta, int last, vector[Event]* want,
                         bint search) noexcept nogil
    cdef bint walk_step(self, GoldThiefRules st, int p, int a, int* cur_gen,
                        int* odr) noexcept nogil
    cdef void recount_odr(self, GoldThiefRules st, int p, int* odr) noexcept nogil
    cdef bint build_model(self, GoldThiefRules st, int p, Rng* rng, vector[Event]* evs,
                          vector[int]* draw_t, vector[int]* gdraw_g, vector[int]* faerie_g,
                          vector[int]* give_t, double* logr_minus_q) noexcept nogil
    cdef void keep_prefix(self, size_t e, int g, int no, int nhl, int ngl, int prc, int mask_q,
                          int mask_x, double wfl, double wfp, int* disc, uint64_t used,
                          int n) noexcept nogil
    cdef void schedule(self, GoldThiefRules st, int p) noexcept nogil
    cdef double model_weight(self, GoldThiefRules st, int p, int nwant,
                             int* verdict) noexcept nogil
    cdef bint build_world(self, GoldThiefRules st, int p, vector[Event]* want, vector[int]* T,
                          vector[int]* meta, int last, vector[int]* draw_t, vector[int]* gdraw_g,
                          vector[int]* faerie_g, vector[int]* give_t, double* logw, bint rec=*,
                          bint loud=*) noexcept nogil
    cdef bint silent_world(self, GoldThiefRules st, int p, vector[int]* T, vector[int]* meta,
                           int last, vector[int]* draw_t, vector[int]* gdraw_g,
                           vector[int]* faerie_g, vector[int]* give_t, double* logw) noexcept nogil
