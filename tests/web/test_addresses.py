"""The companion page's address as a phone can use it: this machine's IPv4 addresses and its
mDNS name, never a bare host name."""

from __future__ import annotations

import ipaddress
import socket
import subprocess

import pytest

from bgpi.web.addresses import local_addresses, mdns_name, phone_host, reachable_hosts
from bgpi.web.run import Address


def ipv4_of_hostname_tool() -> set[str]:
    """What `hostname -I` (Debian's hostname, a required package) lists, IPv4 only."""
    words = subprocess.run(["hostname", "-I"], capture_output=True, text=True, check=True)
    found = {ipaddress.ip_address(word) for word in words.stdout.split()}
    return {str(a) for a in found if a.version == 4 and not (a.is_loopback or a.is_link_local)}


def test_the_addresses_are_the_interfaces_ipv4_addresses() -> None:
    assert set(local_addresses()) == ipv4_of_hostname_tool()
    assert "127.0.0.1" not in local_addresses()


def test_the_mdns_name_is_the_short_host_name() -> None:
    assert mdns_name() == socket.gethostname().split(".")[0] + ".local"
    assert reachable_hosts()[-1] == mdns_name()


def test_a_bind_to_every_interface_names_each_address_and_the_mdns_name() -> None:
    urls = Address("0.0.0.0", 8434, "tok").urls
    hosts = [*local_addresses(), mdns_name()]
    assert urls == tuple(f"http://{host}:8434/?token=tok" for host in hosts)
    assert Address("0.0.0.0", 8434, "tok").url == urls[0]
    assert socket.gethostname() + ":" not in "".join(urls)  # never the bare name


def test_a_bind_to_one_address_names_that_address() -> None:
    assert Address("::1", 8421).urls == ("http://[::1]:8421/",)
    assert Address("127.0.0.1", 8421).url == "http://127.0.0.1:8421/"


@pytest.mark.parametrize("host", ["192.168.1.5:8434", "pi.local:8434", "[fd00::2]:8434"])
def test_a_phone_keeps_an_address_it_can_reach(host: str) -> None:
    assert phone_host(host) == host


@pytest.mark.parametrize("host", ["vm:8434", "127.0.0.1:8434", "localhost:8434", "[::1]:8434"])
def test_a_bare_name_or_loopback_becomes_this_machine(host: str) -> None:
    assert phone_host(host) == f"{reachable_hosts()[0]}:8434"
