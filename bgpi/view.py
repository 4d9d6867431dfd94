"""What the table shows: its state turned into a :class:`~bgpi.lights.scene.Scene`.

Pure, like the table: the renderer then turns the scene into pixel colours.
"""

from __future__ import annotations

from dataclasses import replace

from bgpi.lights.scene import Scene
from bgpi.rules import OFF
from bgpi.sensing.board import BoardDiff, zone_of
from bgpi.sensing.tracker import Kind
from bgpi.table import Phase, Table
from bgpi.words import CUBE, ROLL


def scene_of(table: Table) -> Scene:
    """The scene for the table as it stands."""
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
    )
    builders = {
        Phase.SETUP: _setup,
        Phase.OPENING: _opening,
        Phase.BEFORE_ROLL: _before_roll,
        Phase.DOUBLED: _doubled,
        Phase.MOVING: _moving,
        Phase.CONFIRM: _confirm,
        Phase.GAME_OVER: _over,
        Phase.MATCH_OVER: _over,
    }
    scene = builders[table.phase](table, common)
    # A backend down outranks everything else the board could say.
    return replace(scene, alert="fault") if table.faults else scene


def _guidance(table: Table, scene: Scene) -> Scene:
    """Outside the moving phase the board must match the position: light what to fix."""
    diff = table.board_diff()
    if diff is None or diff.ok:
        return scene
    return _wrong(scene, diff)


def _wrong(scene: Scene, diff: BoardDiff) -> Scene:
    return replace(scene, extra=diff.extra, missing=diff.missing, alert="wrong")


def _setup(table: Table, scene: Scene) -> Scene:
    diff = table.board_diff()
    if diff is None:
        return scene
    wrong = {zone for zone, _ in diff.extra} | {zone for zone, _ in diff.missing}
    expected = {
        zone_of(colour, index)
        for colour, side in ((0, table.position.player), (1, table.position.opponent))
        for index, count in enumerate(side)
        if count and index != OFF
    }
    return replace(
        scene, extra=diff.extra, missing=diff.missing, correct=frozenset(expected - wrong)
    )


def _opening(table: Table, scene: Scene) -> Scene:
    prompts = tuple((p, ROLL, "roll") for p in (0, 1) if table.opening[p] is None)
    return _guidance(table, replace(scene, prompts=prompts))


def _before_roll(table: Table, scene: Scene) -> Scene:
    turn = table.match.turn
    assert turn is not None
    prompts = [(turn, ROLL, "roll")]
    if table.match.may_double(turn):
        prompts.append((turn, CUBE, "double"))
    return _guidance(table, replace(scene, prompts=tuple(prompts), dice=(), dice_left=()))


def _doubled(table: Table, scene: Scene) -> Scene:
    assert table.match.turn is not None
    other = 1 - table.match.turn
    prompts = ((other, ROLL, "take"), (other, CUBE, "drop"))
    return _guidance(table, replace(scene, prompts=prompts, dice=(), dice_left=()))


def _moving(table: Table, scene: Scene) -> Scene:
    reading, tracker, turn = table.reading, table.tracker, table.match.turn
    if reading is None or tracker is None or turn is None:
        return scene
    if reading.kind is Kind.WRONG:
        return _wrong(scene, reading.diff)
    if reading.kind is Kind.IN_FLIGHT:
        return replace(scene, lifted=reading.lifted, destinations=reading.destinations)
    node = tracker.tree.nodes[reading.nodes[0]]
    scene = replace(scene, dice_left=node.dice_left, destinations=reading.destinations)
    if not reading.complete:
        return scene
    if not node.moves:
        return replace(scene, alert="no move", prompts=((turn, ROLL, "acknowledge"),))
    return replace(scene, prompts=((turn, ROLL, "end turn"),))


def _confirm(table: Table, scene: Scene) -> Scene:
    tracker, turn = table.tracker, table.match.turn
    assert tracker is not None and turn is not None
    play = tracker.play(table.candidates[table.candidate])
    zones = frozenset(zone_of(turn, index) for move in play.moves for index in (move.src, move.dst))
    prompts = ((turn, ROLL, "confirm"), (turn, CUBE, "next"))
    return replace(scene, candidate=zones, prompts=prompts, dice_left=())


def _over(table: Table, scene: Scene) -> Scene:
    match = table.match
    if table.phase is Phase.MATCH_OVER:
        alert, winner = "match over", match.winner
    else:
        alert, winner = "game over", match.game_winner
    prompts = ((0, ROLL, "new game"), (1, ROLL, "new game"))
    return replace(scene, alert=alert, winner=winner, prompts=prompts, dice=(), dice_left=())
