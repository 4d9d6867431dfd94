"""The bottom of the house: the game's words, a frame of the switches, the switch map, the
players' language, and the root of bgpi's errors. Imports nothing else of bgpi."""
