"""``bgpi calibrate``: the wizard that learns a builder's wiring at the board.

:mod:`~bgpi.builder.calibrate.learn` holds the pure part (what a change of the switches
means for the spot being learned, and what to tell the builder),
:mod:`~bgpi.builder.calibrate.files` the files (the learned part kept aside, the backup, the
new config), and :mod:`~bgpi.builder.calibrate.wizard` the shell that lights the spots,
waits for the hands and plays the builder's part on the simulator.
"""
