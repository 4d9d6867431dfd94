"""Where the broker is: ``mqtt://host[:port]`` or ``mqtts://host[:port]`` (TLS), checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

PORTS: Final = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True, slots=True)
class Broker:
    """An MQTT broker's address, and how to log in to it."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None  # TLS: a CA of one's own instead of the system's

    @classmethod
    def parse(
        cls,
        url: str,
        *,
        username: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
    ) -> Broker:
        """``ValueError`` naming the URL and what is wrong with it."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise ValueError(f"broker {url!r}: {exc}") from None
        if parts.scheme not in PORTS:
            raise ValueError(f"broker {url!r}: expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
        if not parts.hostname:
            raise ValueError(f"broker {url!r}: no host")
        if parts.path not in ("", "/") or parts.query:
            raise ValueError(f"broker {url!r}: a broker URL has no path or query")
        return cls(
            parts.hostname,
            port or PORTS[parts.scheme],
            parts.scheme == "mqtts",
            username or parts.username or None,
            password or parts.password or None,
            ca_file,
        )

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"
