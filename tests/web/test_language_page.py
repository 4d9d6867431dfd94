"""The page in the players' language: ``bgpi sim --language`` or the config's ``[display]
language`` send the page its words with the layout, and the status, the log, the buttons'
words and the static text all read in that language (Finnish in Chromium, screenshot kept)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.web.test_cli_sim import start, stop
from tests.web.webclient import receive_until, send, socket

SCREENSHOT = Path("/tmp/bgpi-page-fi.png")  # where a person can look at the last run's page


def test_bgpi_sim_speaks_swedish(tmp_path: Path) -> None:
    process, port = start("--seed", "23", "--language", "sv", home=tmp_path)
    try:
        with socket(port) as ws:
            layout = receive_until(ws, lambda m: m["type"] == "layout")
            choosing = receive_until(ws, lambda m: m["type"] == "state")
            send(ws, type="start")  # the match as the defaults stand
            state = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
            send(ws, type="press", player=0, button="roll")
            rolled = receive_until(ws, lambda m: m["type"] == "state" and m["opening"][0] == 3)
    finally:
        out = stop(process)
    words = layout["words"]
    assert words["language"] == "sv"
    assert words["page"]["log"] == "Logg"
    assert words["meanings"]["roll"] == "slå"
    assert words["moves-left"][1:3] == ["1 drag kvar", "2 drag kvar"]
    assert choosing["status"].startswith("Nästa match: en match till 5 poäng. CUBE ändrar den")
    # The captions say it too: CUBE changes the option (ändra), ROLL goes to the next (nästa).
    assert [0, "cube", "change"] in choosing["prompts"] and words["meanings"]["change"] == "ändra"
    assert [0, "roll", "next"] in choosing["prompts"] and words["meanings"]["next"] == "nästa"
    assert choosing["choosing"]["options"][0]["label"] == "längd"
    assert state["names"] == ["Vit", "Svart"]
    assert state["status"] == "Öppningsslag: varje spelare trycker på ROLL."
    assert rolled["log"][0]["text"] == "Vit (vit) och Svart (svart): en match till 5 poäng"
    assert "frö 23; Ctrl-C stops" not in out and "frö 23; Ctrl-C stoppar" in out


def test_the_moves_left_follow_a_long_dice_label(page: Page, tmp_path: Path) -> None:
    process, port = start("--seed", "23", "--language", "nb", home=tmp_path)
    try:
        page.goto(f"http://127.0.0.1:{port}/")
        page.locator("#choose-start").click()
        expect(page.locator("#status")).to_contain_text("Åpningskast")
        page.keyboard.press("r")
        page.keyboard.press("Shift+R")
        moves = page.locator(".moves-left", has_text="igjen")  # White's panel: White plays 31
        expect(moves).to_have_text("2 trekk igjen")
        panel = page.locator(".panel-group", has=moves)
        label = panel.locator(".panel-label", has_text="terninger").bounding_box()
        shown = moves.bounding_box()
        assert label is not None and shown is not None
        assert label["x"] + label["width"] <= shown["x"]
    finally:
        stop(process)


def test_the_config_chooses_norwegian(tmp_path: Path) -> None:
    config = tmp_path / "bgpi.toml"
    config.write_text('[display]\nlanguage = "nb"\n')
    process, port = start("--seed", "23", "--config", str(config), home=tmp_path)
    try:
        with socket(port) as ws:
            layout = receive_until(ws, lambda m: m["type"] == "layout")
            send(ws, type="start")
            state = receive_until(ws, lambda m: m["type"] == "state" and m["phase"] == "opening")
    finally:
        stop(process)
    assert layout["words"]["language"] == "nb"
    assert state["status"] == "Åpningskast: hver spiller trykker ROLL."


def test_the_page_in_finnish(page: Page, tmp_path: Path) -> None:
    process, port = start("--seed", "23", "--language", "fi", home=tmp_path)
    try:
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("#choose-box h2")).to_have_text("Seuraava ottelu")
        start_button = page.locator("#choose-start")
        expect(start_button).to_have_text("Aloita ottelu")
        start_button.click()
        status = page.locator("#status")
        expect(status).to_have_text("Avausheitto: kumpikin pelaaja painaa ROLL-painiketta.")
        expect(page.locator(".meaning").first).to_have_text("heitä")  # beside White's ROLL
        page.keyboard.press("r")  # White's opening die
        page.keyboard.press("Shift+R")  # Black's: White starts with 31
        expect(status).to_have_text(
            "Valkoinen heitti 3-1: nosta nappula nähdäksesi, minne sen voi siirtää. "
            "Pidä CUBE pohjassa luovuttaaksesi."
        )
        assert page.evaluate("document.documentElement.lang") == "fi"
        expect(page.locator("#log-box h2")).to_have_text("Pöytäkirja")
        expect(page.locator("#match th").nth(1)).to_have_text("pisteet")
        expect(page.locator("#mode")).to_have_text("simuloitu lauta")
        expect(page.locator("#length")).to_have_text("5 pisteen ottelu")
        expect(page.locator("#cube-text")).to_have_text("kuutio 1, keskellä")
        expect(page.locator("#log li").first).to_have_text(
            "Valkoinen (valkoinen) ja Musta (musta): 5 pisteen ottelu"
        )
        keys = page.locator("[data-words=help-keys]")
        expect(keys).to_contain_text("Näppäimet: r Valkoisen ROLL")
        expect(keys.locator("kbd")).to_have_count(7)  # r, c, Shift R, Shift C, s
        expect(page.locator("#table")).to_have_attribute("aria-label", "lauta")
        # "Valkoinen" is longer than "White": it is squeezed to end before the turn light.
        name = page.locator("#panel-name-0").bounding_box()
        light = page.locator('[data-owner="turn.white"]').first.bounding_box()
        assert name is not None and light is not None
        assert name["x"] + name["width"] < light["x"] + light["width"] / 2
        page.screenshot(path=str(SCREENSHOT), full_page=True)
    finally:
        stop(process)
