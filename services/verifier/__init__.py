"""The verifier: deal records from the event store, their verdicts over HTTP, the command
line and the batch audit (PF-FAIR-5). The checks themselves are `engine/verify.py`."""
