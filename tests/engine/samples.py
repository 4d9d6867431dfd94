"""An analysis as gnubg gives one, for tests of what is done with it."""

from bgpi.engine import GameAnalysis, MatchAnalysis, PlayerRating

WHITE = PlayerRating("White", 22, 0.0, 2, 0.0, 0.0, "Supernatural", -11.5, "Bad dice, man!")
BLACK = PlayerRating("Black", 18, 1884.0, 19, 0.0, 50.9, "Awful!", -29.1, "Bad dice, man!")
SAMPLE = MatchAnalysis("gnubg expert", (GameAnalysis(1, (0, 0), (WHITE, BLACK)),), (WHITE, BLACK))
