"""Training for the learning agents: replay, episodes, trainers, checkpoints, metrics.

Submodules are imported where used (kits.py is consulted by agents, so this package imports
nothing eagerly and agents stay free of torch until a network is built).
"""
