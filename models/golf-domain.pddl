; Golf as planning (STRIPS with typing). One object per card: the foundation holds a card, (hole ?c),
; so dealing from the stock never binds two parameters to one object. The stock is a linked list in
; dealing order, (after ?c ?p), ending at talon-end; (talon ?p) is its next card. Piles end at a
; base object each; the goal is every base clear (every pile empty). Which ranks may follow which
; is the variant's (follows ?r ?s) facts: nothing on a King, Queens on Kings, or wrapping ranks.
(define (domain golf)
  (:requirements :strips :typing)
  (:types card - place place rank - object)
  (:predicates
    (clear ?p - place)                  ; a pile's top card, or a pile's base once it is empty
    (on ?c - card ?p - place)           ; ?c lies directly on ?p (another card or the pile's base)
    (hole ?c - card)                    ; the foundation's top card
    (talon ?p - place)                  ; the stock's next card (talon-end when it is empty)
    (after ?c - card ?p - place)        ; ?p is dealt right after the stock card ?c
    (rank-of ?c - card ?r - rank)
    (follows ?r ?s - rank))             ; a pile card of rank ?s may go on a foundation showing ?r

  (:action play
    :parameters (?c - card ?p - place ?h - card ?r ?s - rank)
    :precondition (and (clear ?c) (on ?c ?p) (hole ?h) (rank-of ?h ?r) (rank-of ?c ?s) (follows ?r ?s))
    :effect (and (not (clear ?c)) (clear ?p) (not (hole ?h)) (hole ?c)))

  (:action deal
    :parameters (?c - card ?p - place ?h - card)
    :precondition (and (talon ?c) (after ?c ?p) (hole ?h))
    :effect (and (not (talon ?c)) (talon ?p) (not (hole ?h)) (hole ?c))))
