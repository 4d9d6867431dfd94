"""How this Pico is wired to the sensor chain, and how long the chain is.

``hardware/pico.md`` draws the same table (a test keeps the two equal). A board wired to
other pins, or with a longer chain (trays), changes the numbers here before copying the
firmware onto the Pico; the host refuses a scanner whose ``NBITS`` differs from its geometry.
"""

# Switches on the chain: 24 points of 6 slots and two bars of 4 (bgpi's default geometry).
NBITS = 152

# SPI0 on its default pins. Only SCK and MISO are wired; the SPI block claims MOSI anyway.
SPI_ID = 0
SCK = 18  # GP18, Pico pin 24: CLK (pin 2) of every 74HC165
MOSI = 19  # GP19, Pico pin 25: not connected
MISO = 16  # GP16, Pico pin 21: QH (pin 9) of chip 0
LATCH = 17  # GP17, Pico pin 22: SH/LD (pin 1) of every 74HC165
# 1 MHz: 152 bits in about 160 us, slow enough for unbuffered clock lines the length of the
# board (hardware/wiring.md), fast enough for 2000 scans a second.
SPI_BAUD = 1000000
# The on-board LED ("LED" names it on the Pico and the Pico W alike).
LED = "LED"
