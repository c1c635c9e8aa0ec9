"""Seed 000's reward functions on hand-made Jungle positions (games/jungle/rewards.py).

Positions: ranks 7..1, upper case player 0, lower case player 1, X/x face down, side to move,
plies without progress, hidden strengths of each side. V: rat 3, cat 1, dog 1.5, wolf 2,
leopard 2.5, tiger 3, lion 3.5, elephant 4. Position term: Opp 3/(1+d), Threat -4/(1+d).
"""

import pytest

from boardlab import make_game
from boardlab.games.jungle import rewards


@pytest.fixture
def game():
    return make_game("jungle")


def ply(game, text, move, outcome=None):
    """(before, action, after) for `move` from the position, with a chance outcome if any."""
    before = game.state_from_text(text)
    action = before.str_to_action(move)
    after = before.child(action)
    if outcome is not None:
        after.apply(after.str_to_action(outcome))
    return before, action, after


def test_capture_rewards_ten_times_the_value_of_the_captured_piece(game):
    before, action, after = ply(game, "7w/8/8/8/8/2d5/2L5 0 0 - -", "c1-c2")
    assert rewards.classify(before, action, after) == ("capture", 3)
    # lion next to a dog it takes (Opp 3/2), then 10 squares from a wolf it takes (Opp 3/11)
    expected = -0.1 + 10 * 1.5 + (3 / 11 - 3 / 2)
    assert rewards.qlearning_reward(before, action, after) == pytest.approx(expected)
    assert rewards.dqn_reward(before, action, after) == pytest.approx(0.2 * 3)


def test_be_captured_costs_eight_times_the_value_of_the_lost_piece(game):
    # the cat attacks a face-down piece that can only be the elephant, and dies
    before, action, after = ply(game, "7w/8/8/8/8/2x5/W1C5 0 0 - E", "c1-c2", "elephant")
    assert rewards.classify(before, action, after) == ("lost", 2)
    # before: wolf 3 from x (Threat -4/4), cat next to x (-4/2); after: wolf 3 from E (-4/4)
    expected = -0.1 - 8 * 1.0 + (-1.0 - (-1.0 - 2.0))
    assert rewards.qlearning_reward(before, action, after) == pytest.approx(expected)
    assert rewards.dqn_reward(before, action, after) == pytest.approx(-0.3)


def test_mutual_destruction_costs_half_a_point(game):
    before, action, after = ply(game, "7w/8/8/8/8/2l5/W1L5 0 0 - -", "c1-c2")
    assert rewards.classify(before, action, after) == ("mutual", 7)
    # wolf a1: nearest enemy the lion on c2 (d 3, Threat -1) before, the wolf on h7 after
    # (d 6 + 7 = 13, equal strength: 0); our lion had no Opp/Threat against an equal lion
    expected = -0.1 - 0.5 + (0.0 - (-1.0))
    assert rewards.qlearning_reward(before, action, after) == pytest.approx(expected)
    assert rewards.dqn_reward(before, action, after) == pytest.approx(0.2 * 7 - 0.3)


def test_reveal_earns_the_pieces_value_and_the_expected_position_term(game):
    # a1 is a rat or an elephant, next to the enemy elephant: the rat would threaten it
    # (Opp 3/2, V 3), an elephant against an elephant neither takes nor is taken (0).
    # R_Pos is the expectation over both (whatever the draw); the action reward
    # w_reveal V(piece) is the value of the piece that came up.
    text = "8/8/8/8/8/e7/X6X 0 0 RE -"
    position = 0.5 * 3.0 * 1.5 + 0.5 * 4.0 * 0.0
    for outcome, value in (("rat", 3.0), ("elephant", 4.0)):
        before, action, after = ply(game, text, "reveal a1", outcome)
        assert rewards.qlearning_reward(before, action, after) == pytest.approx(
            -0.1 + value + position)
        assert rewards.dqn_reward(before, action, after) == pytest.approx(0.1)


def test_walking_into_a_threat_is_penalised_not_rewarded(game):
    # the seed's Threat is negative: dOpp - dThreat would reward this; we implement the intent
    before, action, after = ply(game, "8/8/8/8/2l5/8/2D4w 0 0 - -", "c1-c2")
    assert rewards.position_term(after, 0) < rewards.position_term(before, 0)
    assert rewards.qlearning_reward(before, action, after) < -0.1


def test_capturing_the_last_piece_wins_the_terminal_reward(game):
    before, action, after = ply(game, "8/8/8/8/8/2d5/2L5 0 0 - -", "c1-c2")
    assert after.is_terminal()
    assert rewards.qlearning_reward(before, action, after) == pytest.approx(
        -0.1 + 10 * 1.5 + (0 - 1.5) + 100.0)
    assert rewards.dqn_reward(before, action, after) == pytest.approx(0.6 + 10.0)


def test_losing_the_last_piece_in_the_reply_costs_the_lost_game(game):
    before_reply = game.state_from_text("8/8/8/8/8/2l5/2D5 1 0 - -")
    after_reply = before_reply.child(before_reply.str_to_action("c2-c1"))
    assert after_reply.is_terminal()
    assert rewards.pieces_lost(before_reply, after_reply, 0) == [3]
    assert rewards.qlearning_reply_reward(before_reply, after_reply, 0) == pytest.approx(
        -8 * 1.5 - 100.0)
    assert rewards.dqn_reply_reward(before_reply, after_reply, 0) == pytest.approx(-0.3 - 10)


def test_an_invalid_action_costs_one_point(game):
    before = game.state_from_text("8/8/8/8/8/2d5/2L5 0 0 - -")
    reveal_a1 = 0  # a1 is empty: no reveal there
    assert reveal_a1 not in before.legal_actions()
    assert rewards.classify(before, reveal_a1, before.clone()) == ("invalid", 0)
    assert rewards.qlearning_reward(before, reveal_a1, None) == -1.0
    assert rewards.dqn_reward(before, reveal_a1, None) == -1.0


# --- the potential-shaped reward (not the seed's; issue 31) --------------------------------------
def test_the_potential_is_zero_sum_and_zero_once_the_game_is_over(game):
    state = game.state_from_text("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe")
    assert rewards.potential(state, 0) == pytest.approx(-rewards.potential(state, 1))
    assert rewards.potential(state, 0) != 0
    before, action, after = ply(game, "8/8/8/8/8/8/1Lc5 0 0 - -", "b1-c1")  # the last piece
    assert after.is_terminal() and rewards.potential(after, 0) == 0
    assert rewards.potential_reward(before, action, after) == pytest.approx(
        rewards.POTENTIAL_RESULT - rewards.potential(before, 0))


def test_a_transitions_shaping_adds_up_to_gamma_phi_next_minus_phi(game):
    """The own ply's reward and the reply's, both from the learner's side, sum to
    gamma Phi(s') - Phi(s): potential-based shaping over the whole transition."""
    before, action, after = ply(game, "x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe", "c3-b3")
    reply = after.str_to_action("d5-d4")
    next_state = after.child(reply)
    gamma = rewards.SHAPING_DISCOUNT
    total = (rewards.potential_reward(before, action, after)
             + rewards.potential_reply_reward(after, next_state, 0))
    assert total == pytest.approx(gamma * rewards.potential(next_state, 0)
                                  - rewards.potential(before, 0))


def test_with_a_network_that_says_nothing_two_plies_of_shaping_are_minimax_on_the_potential(game):
    """The DQN's two-ply expectimax over the shaped reward, with every Q-value 0, scores each
    move gamma^2 E[min over replies of Phi(leaf)] - Phi(root): the shaping telescopes, and the
    search is the minimax search of the evaluation (chance averaged)."""
    import numpy as np

    from boardlab.agents.dqn import DQNAgent

    state = game.state_from_text("x6x/8/3t4/2x5/2D5/8/X6X 0 3 RE cwe")
    agent = DQNAgent(game, weights="none", lookahead=2, trained_reward="potential")
    agent.q_values = lambda states, players: np.zeros((len(states), game.num_actions))

    def resolved(position, action):
        child = position.child(action)
        if child.current_player() >= 0:
            return [(1.0, child)]
        return [(p, child.child(k)) for k, p in child.chance_outcomes()]

    gamma = rewards.SHAPING_DISCOUNT
    expected = []
    for action in state.legal_actions():
        value = 0.0
        for p, after in resolved(state, action):
            assert not after.is_terminal()
            value += p * min(sum(p2 * gamma ** 2 * rewards.potential(leaf, 0)
                                 for p2, leaf in resolved(after, reply))
                             for reply in after.legal_actions())
        expected.append(value - rewards.potential(state, 0))
    assert np.allclose(agent.lookahead_scores(state), expected, atol=1e-9)
