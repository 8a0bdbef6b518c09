"""Reading what a bot serves over HTTP: its health and its metrics, as Prometheus would."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families


async def get(url: str) -> tuple[int, str]:
    """GET `url`: the status and the body."""
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


def sample(text: str, name: str, **labels: str) -> float:
    """The samples `name` with these labels (and any others) in Prometheus's text format,
    added up: 0 when there is none, as for a counter never counted."""
    return sum(float(found.value) for family in text_string_to_metric_families(text)
               for found in family.samples
               if found.name == name and all(found.labels.get(k) == v
                                             for k, v in labels.items()))
