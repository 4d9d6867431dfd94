"""A seeded fuzz of config files: mutations of the real example config (``systemd/config.toml``)
checked with ``bgpi config check``. Every outcome must be a config accepted (and then its
``bgpi config show`` valid TOML) or one refused with exit status 2 and one line naming the
file; anything else (a traceback, another status, a second line, the file not named) is a
failure.

Case ``n`` of seed ``s`` is the same file on every run (its random numbers are seeded by
``"s:n"``), so a slice of the campaign is a test (``tests/shell/test_config_fuzz.py``) and
``scripts/fuzz_configs.py`` runs the whole of it through real ``bgpi`` processes.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "systemd" / "config.toml"

# -- writing TOML (the fuzz makes values tomllib reads back, and some it cannot) -------------


def toml_value(value: Any) -> str:
    """``value`` as inline TOML; strings by JSON's escapes, which TOML shares (some of what
    it writes, raw DEL for one, TOML then refuses: that is a case too)."""
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = (
            f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(v)}" for k, v in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    # bool before int (a bool is one); JSON writes true, false, numbers and strings as TOML does.
    return json.dumps(value, ensure_ascii=False)


def toml_document(data: dict[str, Any]) -> str:
    """A document: each top-level table a ``[section]`` (its tables inline, an array of
    tables as ``[[section.key]]``), anything else a top-level key."""
    head: list[str] = []
    body: list[str] = []
    for name, value in data.items():
        key = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)
        if not isinstance(value, dict):
            head.append(f"{key} = {toml_value(value)}")
            continue
        body.append(f"\n[{key}]")
        tables = []
        for sub, item in value.items():
            subkey = sub if re.fullmatch(r"[A-Za-z0-9_-]+", sub) else json.dumps(sub)
            if isinstance(item, list) and item and all(isinstance(i, dict) for i in item):
                tables.append((subkey, item))
            else:
                body.append(f"{subkey} = {toml_value(item)}")
        for subkey, items in tables:
            for item in items:
                body.append(f"\n[[{key}.{subkey}]]")
                body.extend(f"{json.dumps(k)} = {toml_value(v)}" for k, v in item.items())
    return "\n".join(head + body) + "\n"


# -- the mutations --------------------------------------------------------------------------

NAMES = (
    "backend", "port", "length", "white", "black", "broker", "match", "zones", "map", "bit",
    "enabled", "host", "language", "timeout_s", "brightness", "led_data", "sensorz", "x",
    "white_hints", "palette", "destination", "unused", "dir", "password", "side", "club",
)  # fmt: skip
SECTIONS = (
    "sensors", "buttons", "leds", "pins", "rules", "players", "seats", "state", "web",
    "display", "remote", "sound",
)  # fmt: skip
BAD_UTF8 = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xe2\x82")
TRICKY = ("\n", '"', "\\", "\t", "\x00", "\x1b[31m", "\x7f", "\u2028", "😀", "'''", '"""', "#")


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A value of any type TOML has, often an awkward one."""
    makers: list[Callable[[], Any]] = [
        lambda: rng.choice((True, False)),
        lambda: rng.choice((0, -1, 1, 7, 255, 65536, 2**31, 2**63 - 1, -(2**63), 10**18)),
        lambda: rng.choice((0.0, -0.0, 0.5, 1e-300, 1e308, math.inf, -math.inf, math.nan)),
        lambda: rng.choice(("", "gpio", "sim", "white", "x" * rng.randrange(1, 300))),
        lambda: "".join(rng.choice((*TRICKY, "a", " ")) for _ in range(rng.randrange(1, 20))),
        lambda: rng.choice(("mqtt://h:1883", "mqtts://[::1]:8883", "mqtt://:0", "ABCDE-FGHJK")),
        lambda: rng.choice((datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), date(2026, 1, 2))),
        lambda: rng.choice((time(3, 4, 5), "point 3", "white bar", "point 25", "bar")),
    ]
    if depth < 3:
        makers += [
            lambda: [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))],
            lambda: {rng.choice(NAMES): random_value(rng, depth + 1) for _ in range(3)},
        ]
    return rng.choice(makers)()


def leaves(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s, k) for s, table in data.items() if isinstance(table, dict) for k in table]


def wrong_type(rng: random.Random, data: dict[str, Any]) -> str:
    section, key = rng.choice(leaves(data))
    data[section][key] = random_value(rng)
    return toml_document(data)


def unknown_key(rng: random.Random, data: dict[str, Any]) -> str:
    if rng.random() < 0.3:
        data[rng.choice((*NAMES, "", " ", "a.b", "ü"))] = {rng.choice(NAMES): random_value(rng)}
    else:
        section = rng.choice(SECTIONS)
        data.setdefault(section, {})[rng.choice((*NAMES, "Backend", "port ", ""))] = random_value(
            rng
        )
    return toml_document(data)


def odd_section(rng: random.Random, data: dict[str, Any]) -> str:
    """A section that is not a table, a table given as an array, or the wiring and LED maps
    and the palette in shapes of every kind."""
    section = rng.choice(SECTIONS)
    choice = rng.randrange(6)
    if choice == 0:
        data[section] = random_value(rng)
    elif choice == 1:
        data[section] = [{rng.choice(NAMES): random_value(rng)}]
    elif choice == 2:
        data.setdefault("leds", {})["map"] = {
            "length": rng.choice((0, 1, 144, 244, 10**6, 10**12, -5, "244")),
            "zones": {
                str(rng.choice((1, 2, 25, 28, 29, 0, -1))): random_value(rng)
                for _ in range(rng.randrange(0, 6))
            }
            if rng.random() < 0.8
            else random_value(rng),
        }
    elif choice == 3:
        # The real map, with a length that may be far past any strip.
        from bgpi.lights.ledmap import LedMap  # noqa: PLC0415

        data.setdefault("leds", {})["map"] = LedMap.default().to_config() | {
            "length": rng.choice((244, 243, 300, 10_001, 10**6, 10**9, 2**62))
        }
    elif choice == 4:
        data.setdefault("leds", {})["palette"] = {
            rng.choice(("destination", "lifted", "nonsense")): rng.choice(
                ([0, 0, 255], [256, 0, 0], [1, 2], [1.5, 2, 3], random_value(rng))
            )
        }
    else:
        data.setdefault("sensors", {})["map"] = [
            {"bit": rng.randrange(-2, 200), "zone": random_value(rng), "slot": rng.randrange(-1, 8)}
            for _ in range(rng.randrange(1, 5))
        ]
        if rng.random() < 0.5:
            data["sensors"]["unused"] = random_value(rng)
    return toml_document(data)


def deep(rng: random.Random, text: str) -> str:
    depth = rng.choice((2, 8, 16, 17, 40, 200, 500, 1000, 2000))
    shape = rng.randrange(4)
    if shape == 0:
        value = "[" * depth + "]" * depth
    elif shape == 1:
        value = "{a = " * depth + "1" + "}" * depth
    elif shape == 2:
        value = "[{a = " * (depth // 2) + "1" + "}]" * (depth // 2)
    else:
        key = "x" + ".x" * depth
        return insert_line(rng, text, f"{key} = 1")
    return insert_line(rng, text, f"{rng.choice(NAMES)} = {value}")


def deep_header(rng: random.Random, text: str) -> str:
    depth = rng.choice((2, 17, 500, 3000))
    name = rng.choice(SECTIONS)
    return text + f"\n[{name}" + ".x" * depth + "]\ny = 1\n"


def bad_utf8(rng: random.Random, raw: bytes) -> bytes:
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(raw) + 1)
        raw = raw[:at] + rng.choice(BAD_UTF8) + raw[at:]
    return raw


def huge_string(rng: random.Random, data: dict[str, Any]) -> str:
    size = rng.choice((1000, 100_000, 900_000, 1_100_000, 3_000_000))
    section, key = rng.choice(
        [
            ("players", "white"),
            ("remote", "broker"),
            ("remote", "match"),
            ("state", "dir"),
            *leaves(data),
        ]
    )
    data.setdefault(section, {})[key] = rng.choice('ab\\\n"é') * size
    return toml_document(data)


def duplicate(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    candidates = [i for i, line in enumerate(lines) if re.match(r"^\[?[a-z_]+[\] =]", line)]
    at = rng.choice(candidates)
    again = rng.randrange(at, len(lines) + 1)
    return "\n".join([*lines[:again], lines[at], *lines[again:]]) + "\n"


def truncate(rng: random.Random, raw: bytes) -> bytes:
    return raw[: rng.randrange(len(raw))]


def flip(rng: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randrange(1, 6)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def raw_controls(rng: random.Random, text: str) -> str:
    """Control characters and quotes straight into a string, a key or a comment."""
    spots = [m.end() for m in re.finditer(r'"|#|= ', text)]
    at = rng.choice(spots)
    return text[:at] + "".join(rng.choice(TRICKY) for _ in range(rng.randrange(1, 4))) + text[at:]


def odd_whole(rng: random.Random, text: str) -> bytes:
    return rng.choice(
        (
            b"",
            b"\xef\xbb\xbf",
            b"\xef\xbb\xbf" + text.encode(),
            b"\x00" * 100,
            text.replace("\n", "\r\n").encode(),
            text.replace("\n", "\r").encode(),
            b"\n" * 10_000,
            ("#" * 2_000_000).encode(),
            text.encode("utf-16"),
        )
    )


def insert_line(rng: random.Random, text: str, line: str) -> str:
    lines = text.splitlines()
    at = rng.randrange(len(lines) + 1)
    return "\n".join([*lines[:at], line, *lines[at:]]) + "\n"


DataMutation = Callable[[random.Random, dict[str, Any]], str]
TextMutation = Callable[[random.Random, str], str | bytes]
RawMutation = Callable[[random.Random, bytes], bytes]
DATA: dict[str, DataMutation] = {
    "wrong type": wrong_type,
    "unknown key": unknown_key,
    "odd section": odd_section,
    "huge string": huge_string,
}
TEXT: dict[str, TextMutation] = {
    "deep nesting": deep,
    "deep header": deep_header,
    "duplicate": duplicate,
    "control characters": raw_controls,
    "odd whole": odd_whole,
}
RAW: dict[str, RawMutation] = {"bad UTF-8": bad_utf8, "truncated": truncate, "flipped": flip}
KINDS = (*DATA, *TEXT, *RAW)


def case(seed: int, number: int) -> tuple[str, bytes]:
    """Case ``number`` of seed ``seed``: (the names of its mutations, the file's bytes). One
    mutation, or two or three in a row (a change to the data, then to the text, then to the
    bytes)."""
    rng = random.Random(f"{seed}:{number}")
    text = EXAMPLE.read_text(encoding="utf-8")
    kinds = sorted(rng.sample(KINDS, rng.choice((1, 1, 1, 2, 3))), key=KINDS.index)
    raw: bytes | None = None
    for kind in kinds:
        if kind in DATA:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                continue  # an earlier mutation broke the text: nothing to change as data
            text = DATA[kind](rng, data)
        elif kind in TEXT:
            changed = TEXT[kind](rng, text)
            if isinstance(changed, bytes):
                raw = changed
                break
            text = changed
        else:
            raw = RAW[kind](rng, raw if raw is not None else text.encode())
    return " + ".join(kinds), raw if raw is not None else text.encode("utf-8", "surrogatepass")


# -- checking -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    code: int | None  # None: an exception escaped
    out: str
    err: str


def in_process(*args: str) -> Run:
    """``bgpi ARGS`` through :func:`bgpi.cli.main` in this process (quick)."""
    from bgpi.cli import main  # noqa: PLC0415

    out, err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    except Exception as exc:  # what escapes main is the failure being looked for
        return Run(None, out.getvalue(), f"{err.getvalue()}Traceback: {exc!r:.300}")
    return Run(code, out.getvalue(), err.getvalue())


def in_subprocess(*args: str) -> Run:
    """``bgpi ARGS`` as a process of its own, as a user runs it, in at most a gigabyte of
    memory (a Pi's own is half that) and a minute."""
    try:
        result = subprocess.run(
            [sys.executable, "-m", "bgpi", *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60,
            check=False,
            cwd=ROOT,
            preexec_fn=_limited,
        )
    except subprocess.TimeoutExpired:
        return Run(None, "", "Traceback: still running after a minute")
    return Run(result.returncode, result.stdout, result.stderr)


def _limited() -> None:
    import resource  # noqa: PLC0415 (POSIX only, and only here)

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


Runner = Callable[..., Run]
LONGEST = 700  # characters of an error line after the file's name: a key and a reason


def verdict(path: Path, run: Runner) -> tuple[str, str]:
    """("accepted" | "refused" | "failure", why) for the config at ``path``."""
    checked = run("config", "check", str(path))
    one_line = checked.err.count("\n") == 1 and checked.err.endswith("\n")
    one_line &= len(checked.err) <= len(f"bgpi: {path}: ") + LONGEST
    if "Traceback" in checked.err:
        return "failure", f"a traceback: {checked.err[-400:]!r}"
    if checked.code == 2 and one_line and checked.err.startswith(f"bgpi: {path}: "):
        return "refused", checked.err
    if checked.code != 0 or checked.err:
        return "failure", f"exit {checked.code}, stderr {checked.err[:400]!r}"
    shown = run("config", "show", str(path))
    try:
        tomllib.loads(shown.out)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        return "failure", f"config show is not TOML: {exc}"
    if shown.code != 0 or shown.err:
        return "failure", f"config show: exit {shown.code}, stderr {shown.err[:400]!r}"
    return "accepted", ""


@dataclass
class Tally:
    """What a campaign found."""

    outcomes: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, number: int, kinds: str, outcome: str, why: str) -> None:
        self.outcomes[outcome] += 1
        for kind in kinds.split(" + "):
            self.kinds[kind] += 1
        if outcome == "failure":
            self.failures.append(f"case {number} ({kinds}): {why}")

    def __str__(self) -> str:
        total = sum(self.outcomes.values())
        tracebacks = sum("traceback" in f for f in self.failures)
        return (
            f"{total} configs: {self.outcomes['accepted']} accepted (config show valid TOML), "
            f"{self.outcomes['refused']} refused with exit 2 and the file named, "
            f"{self.outcomes['failure']} failures ({tracebacks} tracebacks)"
        )


def campaign(
    where: Path, *, seed: int, numbers: range, run: Runner, jobs: int = 1, tally: Tally
) -> Tally:
    """Check cases ``numbers`` of ``seed``, each written to a file in ``where``."""

    def one(number: int) -> tuple[int, str, str, str]:
        kinds, raw = case(seed, number)
        path = where / f"case-{number:05d}.toml"
        path.write_bytes(raw)
        outcome, why = verdict(path, run)
        path.unlink()
        return number, kinds, outcome, why

    if jobs == 1:
        results = map(one, numbers)
    else:
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

        results = ThreadPoolExecutor(jobs).map(one, numbers)
    for number, kinds, outcome, why in results:
        tally.add(number, kinds, outcome, why)
    return tally
