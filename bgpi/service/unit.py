"""The service as installed: what ``bgpi.service`` and its drop-ins let bgpi reach of the
network, and the drop-in that opens what a config needs.

``systemd/bgpi.service`` gives no network at all (``PrivateNetwork=yes``,
``RestrictAddressFamilies=AF_UNIX``, ``IPAddressDeny=any``). A config that asks for some
(:meth:`~bgpi.service.config.Config.network`: the companion page, a remote match's broker)
needs a drop-in that opens exactly that: ``scripts/install.sh`` writes :func:`dropin`'s text
to :data:`DROPIN`, and ``bgpi config check`` reads the unit and its drop-ins where systemd
does (under a root of the tests' choosing) to say when the service's own config asks for more
than they give.

Only the few settings that decide the network are read, with systemd's rules for repeating
them: the last ``PrivateNetwork=`` wins; an empty ``RestrictAddressFamilies=``,
``IPAddressAllow=`` or ``IPAddressDeny=`` resets the list, and later assignments add to it
(``RestrictAddressFamilies=`` starting with ``~`` is a deny list; after an allow list it
removes). An address is reachable if an allow entry matches it or no deny entry does.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bgpi.base.i18n import N_, _
from bgpi.service.config import Config, ConfigError, Network

UNIT: Final = "bgpi.service"
DROPIN: Final = f"/etc/systemd/system/{UNIT}.d/network.conf"
# Where systemd looks for a system unit and its drop-ins, the first the strongest.
UNIT_DIRS: Final = (
    "/etc/systemd/system.control",
    "/run/systemd/system.control",
    "/run/systemd/transient",
    "/etc/systemd/system",
    "/run/systemd/system",
    "/usr/local/lib/systemd/system",
    "/usr/lib/systemd/system",
    "/lib/systemd/system",
)
INTERNET: Final = frozenset({"AF_INET", "AF_INET6"})
# Addresses that stand for each need: the loopback's, and (for any) one elsewhere of each kind.
_LOOPBACK: Final = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))
_NEEDED: Final = {
    Network.NONE: (),
    Network.LOOPBACK: _LOOPBACK,
    Network.ANY: (
        *_LOOPBACK,
        ipaddress.ip_address("192.0.2.1"),
        ipaddress.ip_address("2001:db8::1"),
    ),
}
_NAMED: Final = {
    "any": ("0.0.0.0/0", "::/0"),
    "localhost": ("127.0.0.0/8", "::1/128"),
    "link-local": ("169.254.0.0/16", "fe80::/64"),
    "multicast": ("224.0.0.0/4", "ff00::/8"),
}
_WATCHED: Final = (
    "ExecStart",
    "PrivateNetwork",
    "RestrictAddressFamilies",
    "IPAddressAllow",
    "IPAddressDeny",
)


@dataclass(frozen=True, slots=True)
class Families:
    """``RestrictAddressFamilies=``: an allow list, a deny list, or (None) no restriction."""

    allow: bool | None = None
    names: frozenset[str] = frozenset()

    def then(self, value: str) -> Families:
        words = value.split()
        if not words:
            return Families()
        deny = words[0].startswith("~")
        names = frozenset(word.lstrip("~") for word in words) - {"none"}
        if self.allow is None:
            return Families(not deny, names)
        if self.allow != deny:  # the same kind of list: it grows
            return Families(self.allow, self.names | names)
        return Families(self.allow, self.names - names)

    def permit(self, family: str) -> bool:
        return self.allow is None or (family in self.names) == self.allow


@dataclass(frozen=True, slots=True)
class Sandbox:
    """What an installed unit and its drop-ins say of the network, and which config it runs."""

    files: tuple[Path, ...]  # the unit, then its drop-ins in the order systemd applies them
    private_network: bool
    families: Families
    allowed: tuple[str, ...]  # IPAddressAllow=
    denied: tuple[str, ...]  # IPAddressDeny=
    config: str | None  # ExecStart's --config

    @classmethod
    def read(cls, files: Sequence[Path]) -> Sandbox:
        private, families = False, Families()
        allowed: list[str] = []
        denied: list[str] = []
        config = None
        for key, value in _settings(files):
            if key == "PrivateNetwork":
                private = value.lower() in ("yes", "true", "on", "1")
            elif key == "RestrictAddressFamilies":
                families = families.then(value)
            elif key in ("IPAddressAllow", "IPAddressDeny"):
                listed = allowed if key == "IPAddressAllow" else denied
                if value:
                    listed.extend(value.split())
                else:
                    listed.clear()
            elif key == "ExecStart" and value:
                config = _config_of(value)
        return cls(tuple(files), private, families, tuple(allowed), tuple(denied), config)

    def forbids(self, network: Network) -> list[str]:
        """The settings that keep bgpi from ``network`` (none: it is open)."""
        if network is Network.NONE:
            return []
        found = []
        if self.private_network:
            found.append("PrivateNetwork=yes")
        if not all(self.families.permit(family) for family in sorted(INTERNET)):
            found.append(f"RestrictAddressFamilies without {' '.join(sorted(INTERNET))}")
        if not all(self._reaches(address) for address in _NEEDED[network]):
            found.append(f"IPAddressDeny={' '.join(self.denied)}")
        return found

    def _reaches(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return _matches(self.allowed, address) or not _matches(self.denied, address)


def installed(root: Path = Path("/")) -> Sandbox | None:
    """The unit as systemd would load it from under ``root``, or None if it has none."""
    dirs = [root / d.lstrip("/") for d in UNIT_DIRS]
    unit = next((d / UNIT for d in dirs if (d / UNIT).is_file()), None)
    if unit is None:
        return None
    dropins: dict[str, Path] = {}
    for directory in reversed(dirs):  # a stronger directory's drop-in replaces one named alike
        for path in sorted((directory / f"{UNIT}.d").glob("*.conf")):
            dropins[path.name] = path
    return Sandbox.read([unit, *(dropins[name] for name in sorted(dropins))])


def dropin(config: Config) -> str | None:
    """The drop-in that opens what of the network ``config`` needs and nothing more; None
    for none, which the unit gives as it is."""
    network, key = config.network()
    if network is Network.NONE:
        return None
    # The loopback alone: the allow list lets it through the unit's IPAddressDeny=any.
    addresses = "IPAddressAllow=localhost" if network is Network.LOOPBACK else "IPAddressDeny="
    return (
        f"# Written by scripts/install.sh: {key} in {config.source} needs\n"
        f"# {_WORDS[network]}. The next install rewrites or removes it as the config then asks;\n"
        "# changes of your own go in `sudo systemctl edit bgpi` (read after this file).\n"
        "[Service]\n"
        "PrivateNetwork=no\n"
        f"RestrictAddressFamilies=AF_UNIX {' '.join(sorted(INTERNET))}\n"
        f"{addresses}\n"
    )


def refusal(config: Config, root: Path = Path("/")) -> ConfigError | None:
    """Why the service installed under ``root`` cannot run ``config`` as it asks, if it is
    the service's own config and asks for network the unit and its drop-ins forbid."""
    sandbox = installed(root)
    if (
        sandbox is None
        or sandbox.config is None
        or not _same(root / sandbox.config.lstrip("/"), Path(config.source))
    ):
        return None  # not the service's config: it may be meant for bgpi sim, or elsewhere
    network, key = config.network()
    settings = sandbox.forbids(network)
    if not settings:
        return None
    why = _(
        "needs {what}, which the installed {unit} forbids ({settings}): scripts/install.sh "
        "writes the drop-in that opens it, {dropin} (docs/remote.md)"
    )
    what = _(_WORDS[network])
    return ConfigError(
        config.source,
        key,
        why.format(what=what, unit=UNIT, settings=", ".join(settings), dropin=DROPIN),
    )


_WORDS: Final = {
    Network.LOOPBACK: N_("this machine's own addresses"),
    Network.ANY: N_("the network"),
}


def _same(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _settings(files: Sequence[Path]) -> Iterator[tuple[str, str]]:
    """The watched ``[Service]`` assignments of ``files``, in order."""
    for path in files:
        section = ""
        for line in _lines(path.read_text(encoding="utf-8", errors="replace")):
            if line.startswith("["):
                section = line.strip()
            elif section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                if key.strip() in _WATCHED:
                    yield key.strip(), value.strip()


def _lines(text: str) -> Iterator[str]:
    """The lines of a unit file, comments left out and continued lines joined."""
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and line.startswith(("#", ";")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


def _config_of(exec_start: str) -> str | None:
    try:
        words = shlex.split(exec_start.lstrip("@-:+!"))
    except ValueError:
        return None
    for index, word in enumerate(words):
        if word == "--config" and index + 1 < len(words):
            return words[index + 1]
        if word.startswith("--config="):
            return word.removeprefix("--config=")
    return None


def _matches(
    entries: Sequence[str], address: ipaddress.IPv4Address | ipaddress.IPv6Address
) -> bool:
    for entry in entries:
        for text in _NAMED.get(entry, (entry,)):
            try:
                network = ipaddress.ip_network(text, strict=False)
            except ValueError:
                continue  # systemd would refuse it; it matches nothing here
            if network.version == address.version and address in network:
                return True
    return False
