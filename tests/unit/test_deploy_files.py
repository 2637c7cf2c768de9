"""deploy/: the compose file, its NATS config, env example and Dockerfile hang together.

No Docker engine runs the tests, so the compose file is checked as data: parsed with
PyYAML (installed with litestar, which depends on it) and compared with what the
services really read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

import services.runtime.config

_ROOT = Path(__file__).resolve().parents[2]
_DEPLOY = _ROOT / "deploy"
_VARIABLE = re.compile(r"\bSAHRA_[A-Z0-9_]+")
_SUBSTITUTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")
_NATS_USERS = ("gateway", "relay", "clock", "bots", "reader")


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((_DEPLOY / "compose.yaml").read_text())
    return loaded


def _services() -> dict[str, dict[str, Any]]:
    services: dict[str, dict[str, Any]] = _compose()["services"]
    return services


def _documented() -> set[str]:
    """The variables in the first column of services/runtime/config.py's table."""
    doc = services.runtime.config.__doc__ or ""
    return {m[1] for m in re.finditer(r"^\| (SAHRA_[A-Z0-9_]+) \|", doc, re.MULTILINE)}


def _env_example() -> dict[str, str]:
    pairs = {}
    for line in (_DEPLOY / ".env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def test_compose_runs_postgres_nats_migrate_two_gateways_and_one_relay() -> None:
    services = _services()
    assert set(services) == {"postgres", "nats", "migrate", "gateway", "relay", "clock", "bots"}
    assert services["clock"]["command"] == ["sahra", "serve", "clock"]
    assert services["bots"]["command"] == ["sahra", "serve", "bots"]
    assert services["postgres"]["image"].startswith("postgres:16")
    assert services["nats"]["image"].startswith("nats:2")
    assert services["migrate"]["command"] == ["sahra", "migrate"]
    assert services["migrate"]["restart"] == "no"
    gateway = services["gateway"]
    assert gateway["command"] == ["sahra", "serve", "gateway", "--host", "0.0.0.0"]
    assert gateway["deploy"]["replicas"] == 2
    assert any(str(p).endswith(":8000") for p in gateway["ports"])
    relay = services["relay"]
    assert relay["command"] == ["sahra", "serve", "relay"]
    assert relay.get("deploy", {}).get("replicas", 1) == 1


def test_the_sahra_services_run_the_image_built_from_deploy_dockerfile() -> None:
    services = _services()
    for name in ("migrate", "gateway", "relay"):
        assert services[name]["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
        assert services[name]["image"] == services["gateway"]["image"]
    assert (_DEPLOY / services["gateway"]["build"]["context"] / "pyproject.toml").is_file()


def test_nats_runs_with_jetstream_from_deploy_nats_conf() -> None:
    nats = _services()["nats"]
    mounted = {v.split(":")[1]: v.split(":")[0] for v in nats["volumes"]}
    config_path = nats["command"][nats["command"].index("--config") + 1]
    assert mounted[config_path] == "./nats.conf"
    conf = (_DEPLOY / "nats.conf").read_text()
    assert re.search(r"^jetstream\s*\{", conf, re.MULTILINE)
    assert "js-enabled-only=true" in " ".join(nats["healthcheck"]["test"])


def test_everything_starts_in_order_behind_healthchecks() -> None:
    services = _services()
    for name in ("postgres", "nats", "gateway"):
        assert services[name]["healthcheck"]["test"], name
    assert "/readyz" in " ".join(services["gateway"]["healthcheck"]["test"])
    healthy = {"condition": "service_healthy"}
    assert services["migrate"]["depends_on"] == {"postgres": healthy}
    for name in ("gateway", "relay"):
        assert services[name]["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "postgres": healthy,
            "nats": healthy,
        }


def test_every_sahra_service_shares_one_token_secret_from_the_env_file() -> None:
    services = _services()
    secrets = {services[n]["environment"]["SAHRA_TOKEN_SECRET"] for n in ("gateway", "relay")}
    assert len(secrets) == 1
    (secret,) = secrets
    assert secret.startswith("${SAHRA_TOKEN_SECRET:?")  # compose refuses to start without it
    example = _env_example()
    used = set(_SUBSTITUTED.findall((_DEPLOY / "compose.yaml").read_text()))
    assert used == set(example)
    assert "SAHRA_TOKEN_SECRET" in example


def test_every_variable_the_services_read_is_documented_in_the_config_table() -> None:
    documented = _documented()
    assert {"SAHRA_DATABASE_URL", "SAHRA_NATS_URL", "SAHRA_TOKEN_SECRET"} <= documented
    given = {v for s in _services().values() for v in s.get("environment", {})}
    given |= set(_VARIABLE.findall((_DEPLOY / "Dockerfile").read_text()))
    assert {v for v in given if v.startswith("SAHRA_")} <= documented
    read = {
        variable
        for path in (_ROOT / "services").rglob("*.py")
        for variable in _VARIABLE.findall(path.read_text())
    }
    assert read - documented == set()


def test_the_image_is_python_3_11_slim_installed_by_pip_as_a_user_on_port_8000() -> None:
    lines = [
        line.strip()
        for line in (_DEPLOY / "Dockerfile").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert lines[0] == "FROM python:3.11-slim"
    assert any(line.startswith("RUN pip install .") for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert "EXPOSE 8000" in lines
    # The installed package does not live next to migrations/: it must be told.
    assert "COPY migrations ./migrations" in lines
    assert any("SAHRA_MIGRATIONS_DIR=/app/migrations" in line for line in lines)
    assert any(line.startswith("WORKDIR /app") for line in lines)


def test_every_service_reaches_nats_as_its_own_user_with_a_password_from_the_env_file() -> None:
    """Issue 10 item 2: no NATS client without a user; deploy/nats.conf has one per
    service, its password from the nats container's environment, and each service's URL
    names its own (the permissions themselves are run in tests/integration/
    test_deploy_nats.py)."""
    services = _services()
    conf = (_DEPLOY / "nats.conf").read_text()
    users = dict(re.findall(r"\{user: (\w+), password: \$(NATS_\w+_PASSWORD),", conf))
    assert users == {u: f"NATS_{u.upper()}_PASSWORD" for u in _NATS_USERS}
    assert re.search(r"^authorization \{", conf, re.MULTILINE)
    passed = services["nats"]["environment"]
    assert passed == {v: f"${{{v}:?set {v} in deploy/.env}}" for v in users.values()}
    for name in ("gateway", "relay", "clock", "bots"):
        url = services[name]["environment"]["SAHRA_NATS_URL"]
        assert url == f"nats://{name}:{passed[users[name]]}@nats:4222", name
    assert "SAHRA_NATS_URL" not in services["migrate"]["environment"]  # no bus needed
    assert set(users.values()) <= set(_env_example())


def test_only_writers_may_publish_on_the_table_subjects() -> None:
    conf = (_DEPLOY / "nats.conf").read_text()
    grants = dict(re.findall(r"\{user: (\w+), .*permissions: \{publish: \$(\w+),", conf))
    lists = {
        name: re.findall(r'"([^"]+)"', body)
        for name, body in re.findall(r"(\w+_SUBJECTS) = \[(.*?)\]", conf, re.DOTALL)
    }
    may_publish = {user for user, grant in grants.items() if "sahra.table.>" in lists[grant]}
    assert may_publish == {"gateway", "relay", "clock", "bots"}
    everything = {subject for subjects in lists.values() for subject in subjects}
    assert not any(
        s.startswith(("$JS.API.STREAM.DELETE", "$JS.API.STREAM.PURGE")) for s in everything
    )
    assert ">" not in everything and "$JS.API.>" not in everything
