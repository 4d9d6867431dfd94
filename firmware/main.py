"""MicroPython runs this file at power-up: the scanner starts (``pico.main``)."""

import pico

pico.main()
