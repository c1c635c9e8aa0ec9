"""Sequence (seed 002): the COMP90054 framework's rules as docs/design.md#sequence-seed-002
decides them; the
`Game` and `State` (rules.py holds the board cells, action ids and lines they use).

The exact rules, action ids and notation are in README.md beside this file. In short: two
52-card decks with jacks; 5 face-up draft cards and 6 cards a player; seat i plays for team
i % 2. A turn is split into decisions: (1) a player holding a dead card first trades one dead
card for a draft card or declines, (2) plays a card (a chip on one of its two spaces, a
two-eyed jack anywhere empty, a one-eyed jack removes an ordinary opponent chip), (3) takes a
draft card. Two sequences win; when the draft runs dry, more sequences win.

Hidden information: the state holds the true hands and the deck order (shuffled once from the
seed in `initial_state`, drawn from inside `apply`); `view(player, rng)` re-draws everything
`player` has not seen, so an agent can never see another hand or the next card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ...core.game import TERMINAL, Game, GameFacts, IllegalActionError, State, slots_clone
from ...render import Drawable
from .cards import (
    CARD_SQUARES,
    CORNERS,
    FULL_DECK,
    HEART,
    JACKS,
    NUM_CARDS,
    ONE_EYED_JACKS,
    SQUARES,
    TWO_EYED_JACKS,
)
from .rules import (BURN_BASE, CHIP, CORNER_CELL, DECLINE, DRAFT_BASE, DRAFT_PHASE, DRAFT_SIZE,
                    EMPTY, HAND_SIZE, LINES, NUM_ACTIONS, PLAY_PHASE, SEQ_CHIP,
                    SEQUENCES_TO_WIN, TRADE_BASE)


@dataclass(frozen=True)
class SequenceSettings:
    num_players: int = 2
    """Players: 2 or 4; seat i plays for team i % 2 and seat 0 moves first."""

    def __post_init__(self) -> None:
        if self.num_players not in (2, 4):
            raise ValueError(f"num_players must be 2 or 4, not {self.num_players}")


class SequenceGame(Game):
    name = "sequence"
    Settings = SequenceSettings
    course_project = "002 Sequence"
    render_module = ".render"

    @property
    def facts(self) -> GameFacts:
        n = self.settings.num_players
        # Every turn takes a card from the draft pool (deck + draft) and has at most three
        # decisions (trade or decline, play, draft); a trade also takes one from the pool.
        return GameFacts(num_players=n, num_actions=NUM_ACTIONS, has_chance=False,
                         hidden_information=True, max_length=3 * (len(FULL_DECK) - HAND_SIZE * n))

    def initial_state(self, seed: int | None = None) -> "SequenceState":
        deck = list(FULL_DECK)
        random.Random(seed).shuffle(deck)
        # deck[-1] is the top: dealing pops from the end, as the framework does
        draft = [deck.pop() for _ in range(DRAFT_SIZE)]
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(self.num_players)]
        board = [EMPTY] * SQUARES
        for sq in CORNERS:
            board[sq] = CORNER_CELL
        return SequenceState(self, board, hands, draft, deck)

    def state_from_text(self, text: str) -> "SequenceState":
        from .notation import parse_position

        return parse_position(self, text)

    @property
    def evaluators(self):
        from .heuristics import EVALUATORS

        return EVALUATORS


class SequenceState(Drawable, State):
    __slots__ = ("game", "board", "hands", "draft", "deck", "discards", "known", "seat",
                 "phase", "trade_done", "sequences", "plies", "winner", "viewer", "last",
                 "prev_board", "_legal")

    def __init__(self, game: SequenceGame, board: list[int], hands: list[list[int]],
                 draft: list[int], deck: list[int], discards: list[int] | None = None,
                 seat: int = 0, phase: int = PLAY_PHASE, trade_done: bool = False,
                 sequences: list[int] | None = None, known: list[list[int]] | None = None,
                 plies: int = 0) -> None:
        self.game = game
        self.board = board
        self.hands = hands
        self.draft = draft
        self.deck = deck
        """The undealt cards; the last one is the next drawn."""
        self.discards = discards if discards is not None else []
        """Every card played, traded or burnt, in order (public)."""
        self.known = known if known is not None else [[] for _ in hands]
        """known[seat]: cards everyone saw `seat` take from the draft and not play since."""
        self.seat = seat
        self.phase = phase
        self.trade_done = trade_done
        """Whether the seat to move traded or declined already this turn."""
        self.sequences = sequences if sequences is not None else [0, 0]
        self.plies = plies
        self.winner: int | None = None
        """At the end: the winning team, or -1 for a draw."""
        self.viewer: int | None = None
        """In a `view` copy: whose view it is (other hands are guesses); None if true."""
        self.last: tuple[int, int, int] | None = None
        """(seat, action, square) of the last decision, for the seed's move-value heuristic."""
        self.prev_board: tuple[int, ...] | None = None
        """The board before the last play (the seed values a play on the board it sees)."""
        self._legal: list[int] | None = None

    # --- whose turn ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.seat

    def is_terminal(self) -> bool:
        return self.winner is not None

    def team_of(self, seat: int) -> int:
        return seat % 2

    # --- actions -------------------------------------------------------------------------------
    def dead_cards(self, seat: int) -> list[int]:
        """Distinct normal cards in `seat`'s hand whose two spaces are both taken."""
        board = self.board
        dead = set()
        for card in self.hands[seat]:
            if card not in JACKS:
                first, second = CARD_SQUARES[card]
                if board[first] != EMPTY and board[second] != EMPTY:
                    dead.add(card)
        return sorted(dead)

    def in_trade_step(self) -> bool:
        return (self.winner is None and self.phase == PLAY_PHASE and not self.trade_done
                and bool(self.dead_cards(self.seat)))

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        hand = set(self.hands[self.seat])
        if self.phase == DRAFT_PHASE:
            return sorted(DRAFT_BASE + card for card in set(self.draft))
        if not self.trade_done:
            dead = self.dead_cards(self.seat)
            if dead:
                drafts = sorted(set(self.draft))
                return [TRADE_BASE + d * NUM_CARDS + pick for d in dead for pick in drafts] + [
                    DECLINE]
        actions = self.plays(self.seat)
        if not actions:
            actions = [BURN_BASE + card for card in hand]
        return sorted(actions)

    def plays(self, seat: int) -> list[int]:
        """The play actions (unsorted) `seat` has with its hand on this board."""
        board = self.board
        opponent_chip = CHIP[1 - self.team_of(seat)]
        actions: list[int] = []
        for card in set(self.hands[seat]):
            base = card * SQUARES
            if card in TWO_EYED_JACKS:
                actions.extend(base + sq for sq in range(SQUARES) if board[sq] == EMPTY)
            elif card in ONE_EYED_JACKS:
                actions.extend(base + sq for sq in range(SQUARES) if board[sq] == opponent_chip)
            else:
                actions.extend(base + sq for sq in CARD_SQUARES[card] if board[sq] == EMPTY)
        return actions

    def apply(self, action: int) -> None:
        legal: list[int] | tuple[()] = ()
        if self.winner is None:
            if self._legal is None:
                self._legal = self._generate()
            legal = self._legal
        if not isinstance(action, (int, np.integer)) or action not in legal:
            raise IllegalActionError(self._illegal_message(action))
        action = int(action)
        self._legal = None
        self.plies += 1
        seat = self.seat
        if action < DRAFT_BASE:
            self._play(seat, action)
        elif action < TRADE_BASE:
            card = action - DRAFT_BASE
            self.last = (seat, action, -1)
            self._take_from_draft(seat, card)
            if self.winner is None:
                self.seat = (seat + 1) % self.game.num_players
                self.phase = PLAY_PHASE
                self.trade_done = False
        elif action < DECLINE:
            dead, pick = divmod(action - TRADE_BASE, NUM_CARDS)
            self.last = (seat, action, -1)
            self._discard(seat, dead)
            self._take_from_draft(seat, pick)
            self.trade_done = True
        elif action == DECLINE:
            self.last = (seat, action, -1)
            self.trade_done = True
        else:
            self.last = (seat, action, -1)
            self._discard(seat, action - BURN_BASE)
            self.phase = DRAFT_PHASE

    def _play(self, seat: int, action: int) -> None:
        card, sq = divmod(action, SQUARES)
        team = self.team_of(seat)
        self.prev_board = tuple(self.board)
        self.last = (seat, action, sq)
        self._discard(seat, card)
        if card in ONE_EYED_JACKS:
            self.board[sq] = EMPTY
        else:
            self.board[sq] = CHIP[team]
            self.sequences[team] += self._new_sequences(sq, team)
            if self.sequences[team] >= SEQUENCES_TO_WIN:
                self.winner = team
                return
        self.phase = DRAFT_PHASE

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.discards.append(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def _take_from_draft(self, seat: int, card: int) -> None:
        self.draft.remove(card)
        self.hands[seat].append(card)
        self.known[seat].append(card)
        if self.deck:
            self.draft.append(self.deck.pop())
        elif not self.draft:
            # the deck ran out and the draft was played down: more sequences win
            s0, s1 = self.sequences
            self.winner = 0 if s0 > s1 else 1 if s1 > s0 else -1

    def _new_sequences(self, sq: int, team: int) -> int:
        """Count (and mark) the sequences the chip just placed on `sq` completes."""
        board = self.board
        own, own_seq = CHIP[team], SEQ_CHIP[team]
        found = 0
        to_mark: list[int] = []
        for line in LINES[sq]:
            # every window of five through the new chip holds offset -1 or +1: most
            # placements have neither of their own and need no closer look
            before, after = line[3], line[5]
            if not ((before >= 0 and board[before] in (own, own_seq, CORNER_CELL))
                    or (after >= 0 and board[after] in (own, own_seq, CORNER_CELL))):
                continue
            # per offset: 0 own chip or corner, 1 own sequence chip, None anything else
            kinds: list[int | None] = []
            for cell_sq in line:
                cell = board[cell_sq] if cell_sq >= 0 else EMPTY
                kinds.append(0 if cell == own or cell == CORNER_CELL else
                             1 if cell == own_seq else None)
            valid = []  # windows of 5 through offset 4 with at most one earlier-sequence chip
            for start in range(5):
                window = kinds[start:start + 5]
                if None in window:
                    continue
                earlier = sum(cast("list[int]", window))  # no None in it: 0s and 1s
                if earlier <= 1:
                    valid.append((earlier, start))
            if not valid:
                continue
            starts = [start for _, start in valid]
            if 0 in starts and 4 in starts:
                # a line of 9: two sequences sharing the new chip (each may also share one
                # chip with an earlier sequence); the framework counts it three times
                found += 2
                to_mark.extend(line)
            else:
                found += 1
                _, start = min(valid)  # fewest earlier-sequence chips, then the first
                to_mark.extend(line[start:start + 5])
        if all(board[h] in (own, own_seq) for h in HEART):
            found += 2  # the heart of the board counts as two sequences
            to_mark.extend(HEART)
        for cell_sq in to_mark:
            if board[cell_sq] == own:
                board[cell_sq] = own_seq
        return found

    clone = slots_clone(__slots__, copied=("board", "draft", "deck", "discards", "sequences"),
                        copied_each=("hands", "known"))

    # --- outcome -------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.winner is None or self.winner == -1:
            return [0.0] * n
        return [1.0 if seat % 2 == self.winner else -1.0 for seat in range(n)]

    # --- information ---------------------------------------------------------------------------
    def unseen_cards(self, player: int) -> list[int]:
        """The cards `player` has not seen: other hands (less what they were seen to draft)
        and the deck, as a sorted multiset."""
        counts = [2] * NUM_CARDS
        seen = self.hands[player] + self.draft + self.discards
        for seat, cards in enumerate(self.known):
            if seat != player:
                seen = seen + cards
        for card in seen:
            counts[card] -= 1
        return [card for card in range(NUM_CARDS) for _ in range(counts[card])]

    def view(self, player: int, rng: random.Random) -> "SequenceState":
        """A copy in which the other hands (less the cards they were seen to draft) and the
        deck order are re-drawn at random from the cards `player` has not seen."""
        new = self.clone()
        pool = self.unseen_cards(player)
        rng.shuffle(pool)
        for seat in range(len(self.hands)):
            if seat != player:
                guessed = len(self.hands[seat]) - len(self.known[seat])
                new.hands[seat] = self.known[seat] + pool[:guessed]
                del pool[:guessed]
        new.deck = pool
        new.viewer = player
        return new

    # --- notation ------------------------------------------------------------------------------
    def action_to_str(self, action: int) -> str:
        from .notation import action_text

        return action_text(action)

    def str_to_action(self, text: str) -> int:
        from .notation import parse_action

        return parse_action(self, text)

    def to_text(self) -> str:
        from .notation import position_text

        return position_text(self)

    def _illegal_message(self, action: Any) -> str:
        from .notation import why_illegal

        return why_illegal(self, action)

    # --- for learning and search ---------------------------------------------------------------
    def encode(self, player: int) -> np.ndarray:
        from .encode import network_input

        return network_input(self, player)

    def key(self) -> Any:
        return (tuple(self.board), tuple(tuple(sorted(h)) for h in self.hands),
                tuple(sorted(self.draft)), tuple(self.deck), self.seat, self.phase,
                self.trade_done, tuple(self.sequences))

    def move_number(self) -> int:
        return self.plies

    def is_capture(self, action: int) -> bool:
        return 0 <= action < DRAFT_BASE and action // SQUARES in ONE_EYED_JACKS

    def chip_counts(self) -> tuple[int, int]:
        """Chips of team 0 and team 1 on the board, sequence chips included."""
        board = self.board
        return (board.count(CHIP[0]) + board.count(SEQ_CHIP[0]),
                board.count(CHIP[1]) + board.count(SEQ_CHIP[1]))

    def __str__(self) -> str:
        from .notation import board_picture

        return board_picture(self)


__all__ = ["SequenceGame", "SequenceState", "SequenceSettings", "NUM_ACTIONS"]
