"""``PYTHONPATH=firmware python -m emulator LINK``: an emulated scanner at LINK until Ctrl-C.

Type switch numbers to toggle them (``12``, or ``12 13 14``), ``unplug``, ``plug``, ``freeze``
or ``thaw``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from emulator.device import Emulator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("link", type=Path, help="where the host finds the scanner")
    parser.add_argument("--nbits", type=int, default=152)
    args = parser.parse_args()
    emulator = Emulator(args.link, args.nbits)
    emulator.plug()
    print(f"scanner emulated at {args.link}; switch numbers toggle, Ctrl-D ends", flush=True)
    actions = {
        "unplug": emulator.unplug,
        "plug": emulator.plug,
        "freeze": emulator.freeze,
        "thaw": emulator.thaw,
    }
    try:
        for line in sys.stdin:
            words = line.split()
            if len(words) == 1 and words[0] in actions:
                actions[words[0]]()
                continue
            bits = emulator.closed
            for word in words:
                bits ^= 1 << int(word)
            emulator.set_closed(bits)
            closed = [bit for bit in range(args.nbits) if bits >> bit & 1]
            print(f"closed: {closed}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        emulator.close()


if __name__ == "__main__":
    main()
