"""The verifier: deal records from the event store and the batch audit (PF-FAIR-5), and
the Verify page. The gateway serves its API (`services/gateway/verify.py`), `sahra verify`
is `services/cli/verify.py`; the checks themselves are `engine/verify.py`."""
