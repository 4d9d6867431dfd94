"""The simulated table and what plays on it: the demo, self-play and the built-in player's slips."""
