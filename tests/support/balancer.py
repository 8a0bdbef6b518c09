"""A load balancer in front of several webhook workers, as a host would run them: each update
Telegram posts goes to one living worker in turn, or, for a test of races, to every living worker
at once. A worker that refuses the connection (it died) is left out from then on.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

import aiohttp
from aiohttp import web


class Balancer:
    def __init__(self, ports: list[int], everyone: Callable[[bytes], bool] = lambda b: False
                 ) -> None:
        """`everyone(body)`: whether this update goes to every living worker at once."""
        self.ports = list(ports)
        self.everyone = everyone
        self.dead: set[int] = set()
        self.sent: dict[int, int] = {port: 0 for port in ports}
        self._turn = itertools.cycle(self.ports)
        self._runner: web.AppRunner | None = None
        self._client: aiohttp.ClientSession | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._client = aiohttp.ClientSession()

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def living(self) -> list[int]:
        return [port for port in self.ports if port not in self.dead]

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items()
                   if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
        targets = self.living() if self.everyone(body) else [self._next()]
        answers = await asyncio.gather(*(self._send(port, request, body, headers)
                                         for port in targets if port))
        done = [a for a in answers if a is not None]
        if not done:
            return web.Response(status=502, text="no worker answered")
        status, text = done[0]
        return web.Response(status=status, text=text)

    def _next(self) -> int:
        for _ in range(len(self.ports)):
            port = next(self._turn)
            if port not in self.dead:
                return port
        return 0

    async def _send(self, port: int, request: web.Request, body: bytes,
                    headers: dict[str, str]) -> tuple[int, str] | None:
        assert self._client is not None
        try:
            async with self._client.request(request.method, f"http://127.0.0.1:{port}"
                                            f"{request.rel_url}", data=body,
                                            headers=headers) as answer:
                self.sent[port] += 1
                return answer.status, await answer.text()
        except aiohttp.ClientConnectionError:
            self.dead.add(port)
            if not self.everyone(body):  # as a balancer retries an idempotent failure
                other = self._next()
                if other:
                    return await self._send(other, request, body, headers)
            return None
