"""The 74HC165 chain on the Pico's SPI: one scan is a latch pulse and ``nbytes`` bytes read.

SH/LD low then high copies every input at once. The SPI runs in mode 2 (clock idle high,
sampled on the falling edge): a 74HC165 shows its first bit before any clock and shifts on the
rising edge, so sampling on the falling one, half a period later, reads every bit once. Read
MSB first, byte ``k`` is chip ``k`` (nearest the Pico first) with input H in bit 7: switch
``8k + j`` is input ``j`` (A = 0 ... H = 7), the order of the host's frames.
"""


class Chain:
    """Scans ``nbits`` switches through ``spi`` (a ``machine.SPI``) and ``latch`` (the SH/LD
    ``machine.Pin``). A closed reed pulls its input low; :meth:`scan` gives 1 for closed."""

    def __init__(self, spi, latch, nbits):
        self.nbits = nbits
        self.nbytes = (nbits + 7) // 8
        self.raw = bytearray(self.nbytes)
        self._spi = spi
        self._latch = latch
        # Inputs past the last switch (a chain longer than its switches) are pulled up and read
        # open; the mask also keeps them out of a frame if one is wired to something.
        spare = 8 * self.nbytes - nbits
        self._last_mask = 0xFF >> spare

    def scan(self):
        """The switches now, one bit each, in :attr:`raw` (reused: copy to keep)."""
        latch = self._latch
        latch.value(0)
        latch.value(1)
        raw = self.raw
        self._spi.readinto(raw, 0xFF)
        for index in range(self.nbytes):
            raw[index] ^= 0xFF
        raw[self.nbytes - 1] &= self._last_mask
        return raw
