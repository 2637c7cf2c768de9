"""Process plumbing: what every process started by `sahra` stands on.

The configuration table and its checks (`config.py`), what each `sahra serve …` process
does around its own work (`entry.py`: flags, servers, signals), the embedded PostgreSQL
and NATS of `sahra up` and the tests (`infra.py`), and what a worker process runs on
(`workers.py`: the store, the bus, a table service). It sits beneath the command line and
the benches, above the processes it starts: none of them imports it.
"""
