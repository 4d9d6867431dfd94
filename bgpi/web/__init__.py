"""The table in a browser: a local web page that shows the board as the wooden one looks.

``bgpi sim`` serves it for the simulated board, where the mouse plays the hands
(:mod:`bgpi.web.session`); ``bgpi run`` can serve it read-only beside a real board
(:mod:`bgpi.web.companion`). Both go through one small server (:mod:`bgpi.web.server`): the
standard library and the ``websockets`` package, plain HTML, CSS and JavaScript, nothing to
build and nothing fetched from the internet, which the board does not have.

What the page shows is built by pure functions (:mod:`bgpi.web.view`, :mod:`bgpi.present.gamelog`)
from the table, the records and the very pixel frame the LED strip gets.
"""
