"""How a phone on the same network reaches the page: this machine's IPv4 addresses and its
mDNS name.

A bare host name (``raspberrypi``) resolves on few phones; an address always does, and
``HOST.local`` does wherever mDNS runs (Raspberry Pi OS runs avahi, iPhones and recent
Android resolve it). Only the standard library: one ioctl per interface, Linux's
``SIOCGIFADDR``, asks nothing of the network.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from typing import Final

_SIOCGIFADDR: Final = 0x8915  # linux/sockios.h
_IFNAMSIZ: Final = 16


def local_addresses() -> tuple[str, ...]:
    """The IPv4 addresses of this machine's interfaces, loopback and link-local left out."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[: _IFNAMSIZ - 1])
            try:
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, request)
            except OSError:  # an interface with no IPv4 address
                continue
            address = ipaddress.IPv4Address(answer[20:24])
            if not (address.is_loopback or address.is_link_local) and str(address) not in found:
                found.append(str(address))
    return tuple(found)


def mdns_name() -> str:
    """``HOST.local``: the name avahi announces for this machine."""
    return f"{socket.gethostname().split('.')[0]}.local"


def reachable_hosts() -> tuple[str, ...]:
    """The names a phone may use for this machine, the most likely to work first."""
    return (*local_addresses(), mdns_name())


def phone_host(host: str) -> str:
    """``host`` (``name:port`` from a request's Host header) as a phone can reach it: an IP
    address or an mDNS name stays; a bare name or loopback becomes this machine's first
    reachable host, keeping the port."""
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon or not port.isdigit():
        name, colon, port = host, "", ""
    bare = name.strip("[]")
    try:
        usable = not ipaddress.ip_address(bare).is_loopback
    except ValueError:
        usable = bare.endswith(".local")
    if usable:
        return host
    return f"{reachable_hosts()[0]}{colon}{port}"
