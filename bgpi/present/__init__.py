"""What the table shows and says: the LEDs' scene, the game log, the board as text, the
game's words as phrases, the printed numbering and the cues heard."""
