"""Training for the learning agents: the training protocol (protocol.py), vectorized
self-play (selfplay.py), the DQN and Q-learning trainers, AlphaZero, replay, checkpoints.

Submodules are imported where used, so importing this package loads no torch.
"""
