"""Per-switch debouncing: a switch's reported state follows its reading only after the
reading has differed from it in ``scans`` consecutive scans.

A reed bounces for about a millisecond when a magnet arrives; at 500 scans a second, three
agreeing scans (4-6 ms) hide that and still report a checker well before a hand can move it
again. Counters sit in one ``bytearray`` and the common case, a byte with nothing changing and
nothing pending, costs one comparison, so a scan allocates nothing.
"""


class Debouncer:
    """The debounced state of ``nbytes * 8`` switches in :attr:`stable`."""

    def __init__(self, nbytes, scans):
        self.stable = bytearray(nbytes)
        self.scans = scans
        self._counts = bytearray(8 * nbytes)
        # Per byte: the bits whose counter is running.
        self._pending = bytearray(nbytes)

    def reset(self, raw):
        """Take ``raw`` as the state, as at power-up, with no counter running."""
        self.stable[:] = raw
        for index in range(len(self._counts)):
            self._counts[index] = 0
        for index in range(len(self._pending)):
            self._pending[index] = 0

    def update(self, raw):
        """Count one scan ``raw``; whether :attr:`stable` changed."""
        stable = self.stable
        pending = self._pending
        changed = False
        for index in range(len(stable)):
            differ = raw[index] ^ stable[index]
            if (differ or pending[index]) and self._update_byte(index, differ):
                changed = True
        return changed

    def _update_byte(self, index, differ):
        counts = self._counts
        scans = self.scans
        active = differ | self._pending[index]
        running = 0
        flipped = 0
        base = 8 * index
        for bit in range(8):
            mask = 1 << bit
            if not active & mask:
                continue
            if differ & mask:
                count = counts[base + bit] + 1
                if count >= scans:
                    flipped |= mask
                    count = 0
                else:
                    running |= mask
                counts[base + bit] = count
            else:
                # It bounced back before it settled: start counting again next time.
                counts[base + bit] = 0
        self._pending[index] = running
        if flipped:
            self.stable[index] ^= flipped
            return True
        return False
