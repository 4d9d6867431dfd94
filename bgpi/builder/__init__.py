"""The builder's tools: the wiring wizard, the self-test, putting the firmware on the Pico."""
