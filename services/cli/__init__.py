"""The `sahra` command: `main.py` wires one module per sub-command (`up`, `serve` with its
`relay`, `clock` and `bots`, `migrate`, `replay`, `verify`, `fair`, `bench`,
`quarantine`). The top of the layers: it starts processes and benches, nothing imports it.
"""
