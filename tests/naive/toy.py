"""Pure-Python reference of the toy three-seat ruleset (tests/toy_game.py)."""

RANKS = ("9", "10", "J", "Q", "K", "A")


def legal_moves_of(game, state) -> set[str]:
    """Follow the led suit when you can; else any card."""
    hand = state.hand(state.to_move)
    trick = state.trick
    if not trick:
        return set(hand)
    led = trick[0][-1]
    same = {c for c in hand if c[-1] == led}
    return same or set(hand)
