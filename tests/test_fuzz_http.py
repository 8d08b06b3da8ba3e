"""The HTTP API fuzzed with schemathesis from its own OpenAPI schema, in process: whatever a client
sends, the server never fails (no 5xx) and every answer conforms to the schema.

Each operation gets examples built from the schema (valid and invalid: wrong types, missing and
unknown fields, odd strings in the path). The requests go through one in-process server (a
``TestClient`` with its lifespan), without the HTTP rate limit, so every request reaches the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.core.result import Err

from hisss.server import Settings, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    directory = tmp_path_factory.mktemp("fuzz")
    app = create_app(
        Settings(
            database=f"sqlite+pysqlite:///{directory / 'fuzz.db'}",
            bot_delay=0.0,
            http_rate_per_second=0.0,
        )
    )
    with TestClient(app, raise_server_exceptions=False) as test_client:
        # A game and a replay exist, so that some generated keys are real.
        test_client.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "bot"}]})
        yield test_client


def operations() -> list[Any]:
    """Every operation of the API's schema (read from an app that is not started)."""
    app: Any = create_app(Settings(database="sqlite+pysqlite:///:memory:"))
    loaded = schemathesis.openapi.from_dict(app.app.openapi())
    found: list[Any] = []
    for result in loaded.get_all_operations():
        assert not isinstance(result, Err), result
        found.append(result.ok())
    return found


OPERATIONS = operations()


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method} {op.path}")
def test_the_api_never_fails_and_answers_by_its_schema(operation: Any, client: TestClient) -> None:
    @settings(
        max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    @given(operation.as_strategy())
    def check(case: Any) -> None:
        kwargs = case.as_transport_kwargs(base_url="http://testserver")
        for unused in ("verify", "cert", "allow_redirects"):
            kwargs.pop(unused, None)
        if not kwargs.get("cookies"):
            kwargs.pop("cookies", None)
        response = client.request(**kwargs)
        assert response.status_code < 500, (case.as_curl_command(), response.text)
        # A request the schema allows may still break a rule the schema cannot say (2 to 5
        # seats, 6 with an option): refusing it is right, so that check is left out.
        case.validate_response(response, excluded_checks=[positive_data_acceptance])

    check()
