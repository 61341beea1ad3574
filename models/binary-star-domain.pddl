; Binary Star as planning (STRIPS with typing). Two decks put two equal cards in play, so the
; objects are the positions of the deal (pile, depth), not cards; a foundation holds only the rank
; of its top card (suits never matter), one (top ?f ?r) fact per foundation.
(define (domain binary-star)
  (:requirements :strips :typing)
  (:types position foundation rank)
  (:predicates
    (available ?c - position)           ; on top of its pile
    (on ?c ?under - position)           ; ?c lies directly on ?under
    (bottom ?c - position)              ; nothing lies under ?c
    (played ?c - position)
    (rank-of ?c - position ?r - rank)
    (next ?r ?s - rank)                 ; one rank apart (K and A too), both ways
    (top ?f - foundation ?r - rank))

  (:action play
    :parameters (?c ?under - position ?f - foundation ?from ?to - rank)
    :precondition (and (available ?c) (on ?c ?under) (top ?f ?from) (rank-of ?c ?to) (next ?from ?to))
    :effect (and (not (available ?c)) (available ?under) (played ?c) (not (top ?f ?from)) (top ?f ?to)))

  (:action play-bottom
    :parameters (?c - position ?f - foundation ?from ?to - rank)
    :precondition (and (available ?c) (bottom ?c) (top ?f ?from) (rank-of ?c ?to) (next ?from ?to))
    :effect (and (not (available ?c)) (played ?c) (not (top ?f ?from)) (top ?f ?to))))
