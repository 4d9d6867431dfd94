"""Each phase's words beside its lights: the status line's sentences and the LEDs' scenes are
keyed the same way, one of each for every phase, in the phases' own order."""

from __future__ import annotations

from bgpi.present.leds import SCENES
from bgpi.present.status import SENTENCES
from bgpi.table import Phase


def test_every_phase_has_a_scene_and_a_sentence_keyed_in_the_phases_order() -> None:
    assert list(SCENES) == list(Phase)
    assert list(SENTENCES) == list(Phase)
