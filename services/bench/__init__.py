"""The benches and the soak: `sahra bench engine|store|service|verify|bots` (a module
each) and `python -m services.bench.soak`. Each measures a part of the platform from
outside, as a client or a driver would; nothing else imports them.
"""
