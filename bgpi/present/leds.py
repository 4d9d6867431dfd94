"""What the table shows: its state turned into a :class:`~bgpi.lights.scene.Scene`, one
builder a phase (:data:`SCENES`), beside the status line each phase says
(:mod:`bgpi.present.status`).

Pure, like the table: the renderer then turns the scene into pixel colours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from bgpi.base.words import BAR_BLACK, BAR_WHITE, BLACK, WHITE, Player
from bgpi.lights.scene import Alert, Prompt, Scene
from bgpi.present.clockbar import with_clocks
from bgpi.rules import OFF
from bgpi.sensing.board import BoardDiff, check_board, observe, zone_of
from bgpi.sensing.mistakes import MistakeKind
from bgpi.sensing.tracker import Kind
from bgpi.table import Phase, Table, active_rows, lit_move
from bgpi.table.buttons import Hold, Intent
from bgpi.table.options import (
    LONGEST,
    PLAYER_OPTIONS,
    Option,
    options_of,
    place_of,
    value_of,
)
from bgpi.table.phases import (
    Choosing,
    Confirm,
    Entering,
    Forfeited,
    Guided,
    Illegal,
    Moving,
    Resigning,
    ResignPending,
    Rolling,
    Said,
    TakebackAsked,
)


def scene_of(table: Table, t: float | None = None) -> Scene:
    """The scene for the table as it stands; at ``t`` (the table's time), with the clock's
    bars (:mod:`bgpi.present.clockbar`)."""
    match = table.match
    common = Scene(
        turn=match.turn,
        dice=match.dice or (),
        dice_left=match.dice or (),
        opening_dice=table.opening,
        cube_value=match.cube,
        cube_owner=match.cube_owner,
        cube_available=not match.crawford_game,
        cube_offered=match.double_offered,
        score=match.score,
        length=match.rules.length,
        last_play=table.last_play,
        prompts=prompts_of(table),
    )
    scene = SCENES[table.phase](table, common)
    if t is not None:
        scene = with_clocks(table, scene, t)
    # A backend down outranks everything else the board could say.
    return replace(scene, alert=Alert.FAULT) if table.outage is not None else scene


def prompts_of(table: Table) -> tuple[Prompt, ...]:
    """What each button does now, from the table of rows: the short press of each button,
    and the forfeit claim (held, but the one thing a person can do about a silent board:
    :mod:`bgpi.table.buttons`)."""
    return tuple(
        (player, row.button, row.meaning)
        for player, row in active_rows(table)
        if row.hold is Hold.SHORT or row.intent is Intent.CLAIM_FORFEIT
    )


def _guidance(table: Table, scene: Scene) -> Scene:
    """Outside the moving phase the board must match the position: light what to fix."""
    diff = table.board_diff()
    if diff is None or diff.ok:
        return scene
    return _wrong(scene, diff)


def _wrong(scene: Scene, diff: BoardDiff) -> Scene:
    return replace(scene, extra=diff.extra, missing=diff.missing, alert=Alert.WRONG)


def _setup(table: Table, scene: Scene) -> Scene:
    diff = table.board_diff()
    if diff is None:
        return scene
    wrong = {zone for zone, _ in diff.extra} | {zone for zone, _ in diff.missing}
    expected = {
        zone_of(colour, index)
        for colour, side in ((WHITE, table.position.player), (BLACK, table.position.opponent))
        for index, count in enumerate(side)
        if count and index != OFF
    }
    return replace(
        scene, extra=diff.extra, missing=diff.missing, correct=frozenset(expected - wrong)
    )


def _opening(table: Table, scene: Scene) -> Scene:
    return _guidance(table, scene)


def _before_roll(table: Table, scene: Scene) -> Scene:
    return _guidance(table, replace(scene, dice=(), dice_left=()))


def _rolling(table: Table, scene: Scene) -> Scene:
    """The dice on their way from the other board, or thrown by hand and read from the
    GoDice: what the phase before showed (a wrong board, a lifted checker), with no button
    lit, for none decides anything now. GoDice awaited light the turn of the player whose
    throw it is, in the opening too (where nobody is on turn yet: otherwise the board would
    not say whose die it waits for); a throw that must be made again (a die cocked or moved)
    blinks on that player's turn lights until a throw counts."""
    at = table.at
    assert isinstance(at, Rolling)
    scene = _guidance(table, replace(scene, dice=(), dice_left=()))
    if not at.thrown:
        return scene
    scene = replace(scene, turn=at.player)
    if at.again is None or scene.alert is not None:
        return scene
    return replace(scene, alert=Alert.AGAIN)


def _entering(table: Table, scene: Scene) -> Scene:
    """Dice thrown by hand, being entered: the dice pixels of the player whose roll it is
    show the die stepped now (the first of two as an opening die shows, the second beside
    the first, which shows as played)."""
    at = table.at
    assert isinstance(at, Entering)
    if at.entered:
        dice = (at.entered[0], at.shown)
        return replace(scene, turn=at.player, dice=dice, dice_left=(at.shown,))
    shown = tuple(
        at.shown if player == at.player else die for player, die in enumerate(table.opening)
    )
    return replace(scene, dice=(), dice_left=(), opening_dice=(shown[0], shown[1]))


def _doubled(table: Table, scene: Scene) -> Scene:
    return _guidance(table, replace(scene, dice=(), dice_left=()))


def _moving(table: Table, scene: Scene) -> Scene:
    at = table.at
    assert isinstance(at, Moving)
    return _said(_reading(table, at, scene), at.said)


def _said(scene: Scene, said: Said | None) -> Scene:
    """A mistake explained: its points flash for a moment; a hit left undone also shows
    where the blot goes, as a wrong board shows it (take it from its point, add it on the
    bar), while the board is still legal so far."""
    if said is None:
        return scene
    mistake = said.mistake
    if said.flashing:
        scene = replace(scene, mistake=frozenset(mistake.zones))
    if mistake.kind is not MistakeKind.HIT_UNDONE:
        return scene
    point, bar = mistake.zones
    counted = {zone for zone, _ in (*scene.extra, *scene.missing)}
    extra = scene.extra if point in counted else (*scene.extra, (point, 1))
    missing = scene.missing if bar in counted else (*scene.missing, (bar, 1))
    # Where the hitter might go on is no longer the question: the lights show the hit alone.
    return replace(
        scene,
        extra=extra,
        missing=missing,
        lifted=frozenset(),
        destinations=frozenset(),
        alert=Alert.WRONG,
    )


def _reading(table: Table, at: Moving, scene: Scene) -> Scene:
    reading, tracker = at.reading, at.tracker
    if reading is None:
        return scene
    if reading.kind is Kind.WRONG:
        return _wrong(scene, reading.diff)
    if reading.kind is Kind.IN_FLIGHT:
        # The dice still to play where the hands started from: after a bear-off the sensors
        # cannot see, the next checker's die, not the one played.
        left = tracker.node(reading.nodes[0]).dice_left
        return replace(
            scene, lifted=reading.lifted, destinations=reading.destinations, dice_left=left
        )
    node = tracker.node(reading.nodes[0])
    scene = replace(scene, dice_left=node.dice_left, destinations=reading.destinations)
    if reading.complete and not node.moves:
        return replace(scene, alert=Alert.NO_MOVE)
    return _hint(table, scene)


def _hint(table: Table, scene: Scene) -> Scene:
    """The engine's play a person asked for, lit as a guided play lights the computer's
    (the checker to lift blinks, its destination shows), over a board at rest: once a
    checker is lifted the tracker's own destinations show, so any legal play is still
    guided."""
    move, turn = lit_move(table), table.match.turn
    if move is None or turn is None:
        return scene
    return replace(
        scene,
        lifted=frozenset({zone_of(turn, move.src)}),
        destinations=frozenset({zone_of(turn, move.dst)}),
    )


def _confirm(table: Table, scene: Scene) -> Scene:
    at, turn = table.at, table.match.turn
    assert isinstance(at, Confirm) and turn is not None
    play = at.tracker.play(at.candidates[at.candidate])
    zones = frozenset(zone_of(turn, index) for move in play.moves for index in (move.src, move.dst))
    return replace(scene, candidate=zones, dice_left=())


def _guided(table: Table, scene: Scene) -> Scene:
    """A seat's play, lit move by move: the checker to lift blinks where it stands, its
    destination shows; anything else off is a wrong board, shown until corrected."""
    at, turn, seen = table.at, table.match.turn, table.observation
    assert isinstance(at, Guided) and turn is not None
    move = at.next_move
    if move is None or seen is None:
        return scene
    caps = table.config.caps
    diff = check_board(seen, at.steps[at.done + 1], WHITE, caps)
    src, dst = zone_of(turn, move.src), zone_of(turn, move.dst)
    move_zones = {src, dst, BAR_WHITE, BAR_BLACK}
    off = {zone for zone, _ in (*diff.extra, *diff.missing)} - move_zones
    # On a stack taller than its slots no switch opens when the checker is lifted: keep
    # showing where it comes from until it lands.
    before, after = (observe(step, WHITE, caps)[src] for step in at.steps[at.done : at.done + 2])
    still_there = before == after or any(zone == src for zone, _ in diff.extra)
    return replace(
        scene,
        lifted=frozenset({src} if still_there else ()),
        destinations=frozenset({dst}),
        extra=tuple(entry for entry in diff.extra if entry[0] != src),
        missing=tuple(entry for entry in diff.missing if entry[0] != dst),
        alert=Alert.WRONG if off else None,
    )


def _resigning(table: Table, scene: Scene) -> Scene:
    at = table.at
    assert isinstance(at, Resigning | ResignPending)
    offered = isinstance(at, ResignPending)
    return replace(scene, resign=int(at.level), resign_offered=offered, dice_left=())


def _illegal(table: Table, scene: Scene) -> Scene:
    """An illegal play shown to both: where the board differs from the nearest legal play,
    with the wrong-board alert on both players' turn lights."""
    at = table.at
    assert isinstance(at, Illegal)
    reading = at.back.reading
    diff = reading.diff if reading is not None else BoardDiff()
    return _wrong(replace(scene, dice_left=()), diff)


def _takeback_asked(table: Table, scene: Scene) -> Scene:
    """The play asked back lit as a candidate is (its points), over the board that shows
    it; the answer is the lit buttons of the player on roll."""
    at = table.at
    assert isinstance(at, TakebackAsked)
    player = at.undo.player
    zones = frozenset(zone_of(player, index) for move in at.undo.moves for index in move[:2])
    return _guidance(table, replace(scene, candidate=zones, dice=(), dice_left=()))


def _taking_back(table: Table, scene: Scene) -> Scene:
    """The checkers go back to the position before the play taken back: what to take away
    and what to add, as a wrong board shows it; the dice to play again stand beside."""
    return _guidance(table, scene)


def _choosing(table: Table, scene: Scene) -> Scene:
    """The option chosen shows on the score pixels: White's side its value (the cube limit
    as its doublings, 2 one pixel to 64 six), Black's side which option it is (1 the length,
    then in the order ROLL steps through them), both on a 25-pixel gauge; a side's player as
    the roster's place of the name (0 the colour's: nobody in particular)."""
    at = table.at
    assert isinstance(at, Choosing)
    roster = table.config.roster
    if at.option in PLAYER_OPTIONS:
        value = place_of(roster, at.names[PLAYER_OPTIONS[at.option]])
    else:
        value = value_of(at.draft, at.option, at.dice, at.clock)
    if at.option is Option.LIMIT:
        value = value.bit_length() - 1
    number = options_of(at.draft, named=at.named).index(at.option) + 1
    return replace(scene, score=(value, number), length=LONGEST, turn=None, dice=(), dice_left=())


def _ending(table: Table, scene: Scene) -> Scene:
    return scene  # never shown: the end of the game follows in the same step


def _over(table: Table, scene: Scene) -> Scene:
    match, at = table.match, table.at
    winner: Player | None
    if isinstance(at, Forfeited):  # won whatever the score
        alert, winner = Alert.MATCH_OVER, at.winner
    elif table.phase is Phase.MATCH_OVER:
        alert, winner = Alert.MATCH_OVER, match.winner
    else:
        alert, winner = Alert.GAME_OVER, match.game_winner
    return replace(scene, alert=alert, winner=winner, dice=(), dice_left=())


SCENES: Final[dict[Phase, Callable[[Table, Scene], Scene]]] = {
    Phase.SETUP: _setup,
    Phase.OPENING: _opening,
    Phase.BEFORE_ROLL: _before_roll,
    Phase.ROLLING: _rolling,
    Phase.ENTERING: _entering,
    Phase.DOUBLED: _doubled,
    Phase.MOVING: _moving,
    Phase.CONFIRM: _confirm,
    Phase.GUIDED: _guided,
    Phase.RESIGNING: _resigning,
    Phase.RESIGN_OFFERED: _resigning,
    Phase.ILLEGAL: _illegal,
    Phase.TAKEBACK_ASKED: _takeback_asked,
    Phase.TAKING_BACK: _taking_back,
    Phase.CHOOSING: _choosing,
    Phase.ENDING: _ending,
    Phase.GAME_OVER: _over,
    Phase.MATCH_OVER: _over,
}
"""The scene each phase shows, keyed as :data:`bgpi.present.status.SENTENCES` keys what each
says (in the order of :class:`~bgpi.table.Phase`)."""
