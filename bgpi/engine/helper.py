"""The few functions bgpi runs inside gnubg's own Python (``gnubg -t``, lines that begin
with ``>``), sent once when the process starts.

Each request is one line calling ``_bgpi(seq, name, arguments_as_json)``; the answer is one
line of JSON after a marker and the request's number, so the rest of what gnubg prints (its
prompts, its boards) is ignored. Kept to gnubg's documented Python functions.
"""

from __future__ import annotations

from typing import Final

MARK: Final = "@bgpi-answer"

SOURCE: Final = r"""
import base64, json, sys
import gnubg

def _cubeinfo(m):
    ci = gnubg.cubeinfo(m["cube"], m["owner"], m["move"], m["length"], tuple(m["score"]),
                        m["crawford"], 0)
    ci["jacoby"] = m["jacoby"]
    ci["beavers"] = m["beavers"]
    return ci

_filter = [None]

def _context(level):
    if _filter[0] != level["filter"]:
        # gnubg.setevalhintfilter is broken in 1.07; its command sets the same filter.
        for f in level["filter"]:
            gnubg.command("set evaluation movefilter %d %d %d %d %f" % tuple(f))
        _filter[0] = level["filter"]
    return gnubg.evalcontext(1, level["plies"], 1, int(level["prune"]), level["noise"])

def _play(position, dice, m, level):
    ec = _context(level)
    t = gnubg.findbestmove(gnubg.positionfromid(position), _cubeinfo(m), ec, tuple(dice))
    return [[t[i], t[i + 1]] for i in range(0, len(t) - 1, 2) if t[i] or t[i + 1]]

def _cube(position, m, level):
    r = gnubg.cfevaluate(gnubg.positionfromid(position), _cubeinfo(m), _context(level))
    return {"nodouble": r[1], "take": r[2], "drop": r[3], "words": r[5]}

def _probabilities(position, m, level):
    return list(gnubg.evaluate(gnubg.positionfromid(position), _cubeinfo(m), _context(level)))

def _rated(stats, name):
    moves, cube = stats["moves"], stats["cube"]
    decisions = moves["unforced-moves"] + cube["close-cube"]
    error = moves["error-skill"] + cube["error-skill"]
    rate = error / decisions if decisions else 0.0
    luck = stats["dice"]["luck"]
    per_move = luck / moves["total-moves"] if moves["total-moves"] else 0.0
    return {"name": name, "moves": moves["unforced-moves"], "chequer_error": moves["error-skill"],
            "cube_decisions": cube["close-cube"], "cube_error": cube["error-skill"],
            "error_rate": rate, "rating": gnubg.errorrating(rate), "luck": per_move,
            "luck_rating": gnubg.luckrating(per_move)}

def _analyse(path, level):
    s = level
    gnubg.command("import mat " + path)
    for what in ("chequerplay", "cubedecision"):
        gnubg.command("set analysis %s evaluation plies %d" % (what, s["plies"]))
        gnubg.command("set analysis %s evaluation prune %s" % (what, "on" if s["prune"] else "off"))
        gnubg.command("set analysis %s evaluation noise 0" % what)
    gnubg.command("analyse match")
    m = gnubg.match(0, 0, 1, 0)
    names = (m["match-info"]["X"]["name"], m["match-info"]["O"]["name"])
    games = [{"score": [g["info"]["score-X"], g["info"]["score-O"]],
              "players": [_rated(g["stats"]["X"], names[0]), _rated(g["stats"]["O"], names[1])]}
             for g in m["games"]]
    match = [_rated(m["stats"]["X"], names[0]), _rated(m["stats"]["O"], names[1])]
    return {"games": games, "match": match}

def _probe():
    return "ready"

def _bgpi(seq, name, arguments):
    try:
        answer = {"ok": globals()["_" + name](*json.loads(base64.b64decode(arguments)))}
    except Exception as exc:
        answer = {"error": "%s: %s" % (type(exc).__name__, exc)}
    sys.stdout.write("\n%s %d %s\n" % ("@bgpi-answer", seq, json.dumps(answer)))
    sys.stdout.flush()
"""
