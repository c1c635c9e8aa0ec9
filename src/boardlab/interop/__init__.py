"""Faces to other tools: PettingZoo and Gymnasium environments, a UCI/UCCI engine bridge.

Import the submodule you need (`boardlab.interop.pettingzoo`, `.gymnasium`, `.uci`); the first
two need the optional `pettingzoo` and `gymnasium` packages, so nothing is imported here.
"""
