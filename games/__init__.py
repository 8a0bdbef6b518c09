"""The pure rules core: tile sets, the game contract, the games, computer players, the simulator.

Standard library only (DESIGN.md §1, invariant 1; `tests/test_import_boundary.py` enforces it).
"""
