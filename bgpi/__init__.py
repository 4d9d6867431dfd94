"""bgpi: a wooden backgammon board that enforces the rules.

Importing bgpi never touches hardware: hardware libraries are imported only inside the
backend that needs them.
"""

__version__ = "0.1.0"
