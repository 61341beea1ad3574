; Worm Hole as planning (STRIPS with typing): Black Hole with free cells. One object per card; the
; foundation holds a card, (hole ?c), or the virtual `start` card that any rank follows when a deal
; has no foundation card. The cells are interchangeable, so they are a count, not objects:
; (free ?n) says n cells are empty, (less ?m ?n) that m = n - 1. A parked card is (parked ?c) until
; it is played; the goal is every pile's base clear and every cell empty.
(define (domain worm-hole)
  (:requirements :strips :typing)
  (:types card - place place rank count - object)
  (:predicates
    (clear ?p - place)                  ; a pile's top card, or a pile's base once it is empty
    (on ?c - card ?p - place)           ; ?c lies directly on ?p (another card or the pile's base)
    (hole ?c - card)                    ; the foundation's top card
    (parked ?c - card)                  ; ?c is in a cell
    (rank-of ?c - card ?r - rank)
    (next ?r ?s - rank)                 ; a card of rank ?s may go on a foundation showing ?r
    (free ?n - count)                   ; ?n cells are empty
    (less ?m ?n - count))               ; ?m is one less than ?n

  (:action play
    :parameters (?c - card ?p - place ?h - card ?r ?s - rank)
    :precondition (and (clear ?c) (on ?c ?p) (hole ?h) (rank-of ?h ?r) (rank-of ?c ?s) (next ?r ?s))
    :effect (and (not (clear ?c)) (clear ?p) (not (hole ?h)) (hole ?c)))

  (:action park
    :parameters (?c - card ?p - place ?n ?m - count)
    :precondition (and (clear ?c) (on ?c ?p) (free ?n) (less ?m ?n))
    :effect (and (not (clear ?c)) (clear ?p) (parked ?c) (not (free ?n)) (free ?m)))

  (:action play-parked
    :parameters (?c - card ?h - card ?r ?s - rank ?n ?m - count)
    :precondition (and (parked ?c) (hole ?h) (rank-of ?h ?r) (rank-of ?c ?s) (next ?r ?s) (free ?n) (less ?n ?m))
    :effect (and (not (parked ?c)) (not (hole ?h)) (hole ?c) (not (free ?n)) (free ?m))))
