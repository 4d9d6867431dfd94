// The bgpi page: the board drawn in SVG as the wooden one looks, the LEDs drawn from the
// strip's own frame, and (for `bgpi sim`) the mouse and keyboard as the hands.
// Plain JavaScript, no build step, nothing fetched but from the server that sent it.
"use strict";

(() => {
  const NS = "http://www.w3.org/2000/svg";
  const WHITE = 0;
  const BLACK = 1;
  const COLOURS = ["white", "black", "unknown"];

  // Board measures, in SVG units: checker radius, slot pitch, point width, frame, bar, tray,
  // half the playing field's height, the gap between halves, LED pitch, a die's side.
  const G = { R: 17, P: 36, PW: 44, F: 16, BAR: 64, TRAY: 76, HALF: 250, GAP: 30, PITCH: 11, DIE: 44 };
  const X = {}; // across the board, in the board's own units (its group may be turned)
  const Y = {}; // along the board, from its frame's edge
  const V = {}; // the whole picture: panels and where the board's group sits in it
  // A phone held upright: the board turns a quarter (its long side along the screen's) and
  // the panels grow, so the board is as large as the width allows and buttons fit a finger.
  const upright = window.matchMedia("(orientation: portrait)");
  let portrait = upright.matches;

  function measure() {
    G.F = portrait ? 24 : 16; // a wider frame holds point numbers large enough to read
    X.left = G.F;
    X.bar = X.left + 6 * G.PW;
    X.right = X.bar + G.BAR;
    X.rightEnd = X.right + 6 * G.PW;
    X.tray = X.rightEnd + G.F;
    X.width = X.tray + G.TRAY + G.F;
    Y.top = G.F;
    Y.bottom = Y.top + 2 * G.HALF + G.GAP;
    Y.mid = (Y.top + Y.bottom) / 2;
    Y.boardEnd = Y.bottom + G.F;
    V.panel = portrait ? 176 : 96;
    V.width = portrait ? Y.boardEnd : X.width;
    const along = portrait ? X.width : Y.boardEnd;
    V.height = along + 2 * V.panel;
    V.panelTop = [V.panel + along, 0]; // White's panel below the board, Black's above
    // Turned clockwise: the board's x runs down the screen, its y from right to left, so
    // White's side (the board's bottom) is on the left and the trays at the bottom.
    V.board = portrait ? `matrix(0 1 -1 0 ${Y.boardEnd} ${V.panel})` : `translate(0 ${V.panel})`;
  }

  // Text and dice on the turned board turn back, so they read the right way up.
  function straight(node, x, y) {
    if (portrait) node.setAttribute("transform", `rotate(-90 ${x} ${y})`);
    return node;
  }

  const svg = document.getElementById("board");
  const body = document.body;
  const token = new URLSearchParams(location.search).get("token");
  const layers = {};
  const leds = []; // per pixel: { halo, dot }
  const buttons = {}; // "0.roll" -> { group, meaning }
  const panels = []; // per player: the places of panelPlaces and the group redrawn with the state
  const held = new Map(); // key code -> [player, button] held on the keyboard

  let layout = null;
  let state = null;
  let pixels = "";
  let socket = null;
  let drag = null; // { colour, origin, ghost }
  let errorTimer = null;
  let logShown = "";
  let choosingShown = "";
  let checkersShown = "";
  let frameShown = ""; // the last frame, drawn again when the board turns

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (parent) parent.appendChild(node);
    return node;
  }

  // -- geometry ----------------------------------------------------------------------------

  // A zone's place: the x of its middle, the y of its base (the board's edge), which way it
  // grows (-1 up, +1 down), its width. Points 1-6 bottom right, 7-12 bottom left, 13-18 top
  // left, 19-24 top right (White's home bottom right); the bars and the trays by colour.
  function zoneGeom(zone) {
    if (zone <= 6) return { x: X.rightEnd - (zone - 0.5) * G.PW, base: Y.bottom, dir: -1, w: G.PW };
    if (zone <= 12) return { x: X.bar - (zone - 6.5) * G.PW, base: Y.bottom, dir: -1, w: G.PW };
    if (zone <= 18) return { x: X.left + (zone - 12.5) * G.PW, base: Y.top, dir: 1, w: G.PW };
    if (zone <= 24) return { x: X.right + (zone - 18.5) * G.PW, base: Y.top, dir: 1, w: G.PW };
    const bar = { x: X.bar + G.BAR / 2, w: G.BAR, kind: "bar" };
    const tray = { x: X.tray + G.TRAY / 2, w: G.TRAY, kind: "tray" };
    if (zone === 25) return { ...bar, base: Y.bottom, dir: -1 };
    if (zone === 26) return { ...bar, base: Y.top, dir: 1 };
    if (zone === 27) return { ...tray, base: Y.bottom, dir: -1 };
    return { ...tray, base: Y.top, dir: 1 };
  }

  function slots(zone) {
    return layout.slots[String(zone)] || 0;
  }

  function slotY(zone, slot) {
    const g = zoneGeom(zone);
    return g.base + g.dir * (slot + 0.5) * G.P;
  }

  // The zone under a point of the SVG, or null: a point's triangle and the field above it,
  // the bar's and the tray's halves.
  function zoneAt(x, y) {
    for (let zone = 1; zone <= 28; zone++) {
      const g = zoneGeom(zone);
      const far = g.base + g.dir * (G.HALF + G.GAP / 2);
      if (Math.abs(x - g.x) <= g.w / 2 && (y - g.base) * (y - far) <= 0) return zone;
    }
    return null;
  }

  function slotAt(zone, y) {
    const g = zoneGeom(zone);
    const slot = Math.floor(((y - g.base) * g.dir) / G.P);
    return Math.max(0, Math.min(Math.max(slots(zone) - 1, 0), slot));
  }

  // Where the pointer is in the board's own units: through the board group's transform, so
  // dragging works the same on the turned board.
  function svgPoint(event) {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(layers.board.getScreenCTM().inverse());
  }

  // -- drawing the board once the layout is known -------------------------------------------

  function build() {
    svg.textContent = "";
    measure();
    body.dataset.orientation = portrait ? "portrait" : "landscape";
    svg.setAttribute("viewBox", `0 0 ${V.width} ${V.height}`);
    const defs = el("defs", {}, svg);
    const glow = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
    el("feGaussianBlur", { stdDeviation: "4" }, glow);
    for (const name of ["panels", "panelHalos", "dots"]) layers[name] = el("g", { class: name }, svg);
    layers.board = el("g", { class: "board-group", transform: V.board }, svg);
    for (const name of ["wood", "points", "marks", "halos", "slots", "checkers", "cube", "dice", "top"]) {
      layers[name] = el("g", { class: name }, layers.board);
    }
    drawWood();
    drawPanel(WHITE);
    drawPanel(BLACK);
    placeLeds();
  }

  function drawWood() {
    const wood = layers.wood;
    el("rect", { class: "frame", x: 0, y: 0, width: X.width, height: Y.boardEnd, rx: 6 }, wood);
    el("rect", { class: "felt", x: X.left, y: Y.top, width: X.bar - X.left, height: Y.bottom - Y.top }, wood);
    el("rect", { class: "felt", x: X.right, y: Y.top, width: X.rightEnd - X.right, height: Y.bottom - Y.top }, wood);
    el("rect", { class: "bar", x: X.bar, y: Y.top, width: G.BAR, height: Y.bottom - Y.top }, wood);
    el("rect", { class: "tray", x: X.tray, y: Y.top, width: G.TRAY, height: Y.bottom - Y.top }, wood);
    el("line", { x1: X.tray, x2: X.tray + G.TRAY, y1: Y.mid, y2: Y.mid, stroke: "#2f1b0e", "stroke-width": 4 }, wood);
    for (let zone = 1; zone <= 24; zone++) {
      const g = zoneGeom(zone);
      const tip = g.base + g.dir * (6 * G.P + 12);
      const points = `${g.x - G.PW / 2 + 1},${g.base} ${g.x + G.PW / 2 - 1},${g.base} ${g.x},${tip}`;
      el("polygon", { class: `point ${zone % 2 ? "a" : "b"}`, points, "data-zone": zone }, layers.points);
      const y = g.base - g.dir * (G.F / 2);
      const number = straight(el("text", { class: "number", x: g.x, y, "data-zone": zone }, wood), g.x, y);
      number.textContent = zone;
    }
    for (let zone = 1; zone <= 28; zone++) {
      const n = Math.max(slots(zone), zone > 26 ? 0 : 1);
      for (let slot = 0; slot < n; slot++) {
        el("circle", { class: "slot", cx: zoneGeom(zone).x, cy: slotY(zone, slot), r: 2, fill: "none",
          "data-zone": zone, "data-slot": slot }, layers.slots);
      }
    }
    const label = el("text", { class: "hand-label", x: X.tray + G.TRAY / 2, y: Y.mid - 8 }, layers.wood);
    straight(label, X.tray + G.TRAY / 2, Y.mid - 8);
    label.textContent = "";
    layers.handLabel = label;
  }

  // Each player's panel: name and turn light, ROLL and CUBE with the pixel beside each and
  // what each does now below it, the dice lights (two halves), the cube's place and the
  // score bar. White's below the board, Black's above. Each place: x, y of its row of
  // lights, y of its label; a button's box.
  function panelPlaces(player) {
    const y0 = V.panelTop[player];
    const colour = COLOURS[player];
    const wide = {
      name: { x: G.F, y: y0 + 20 },
      turnText: { x: G.F, y: y0 + 56 },
      turn: { area: `turn.${colour}`, x: 76, y: y0 + 16 },
      roll: { area: `button.${colour}.roll`, x: 100, y: y0 + 30, w: 70, h: 32, meaningY: y0 + 78, button: "roll" },
      cube: { area: `button.${colour}.cube`, x: 178, y: y0 + 30, w: 70, h: 32, meaningY: y0 + 78, button: "cube" },
      dice: { area: `dice.${colour}`, x: 266, y: y0 + 46, labelY: y0 + 20 },
      cubeBar: { area: `cube.${colour}`, x: 424, y: y0 + 46, labelY: y0 + 20, faceX: 460, faceY: y0 + 77 },
      score: { area: `score.${colour}`, x: 506, y: y0 + 46, labelY: y0 + 20, textX: 586, textY: y0 + 78 },
      clock: { area: `clock.${colour}`, x: 266, y: y0 + 72 }, // under the dice
    };
    const tall = {
      name: { x: 16, y: y0 + 28 },
      turnText: { x: 160, y: y0 + 28 },
      turn: { area: `turn.${colour}`, x: 132, y: y0 + 22 },
      roll: { area: `button.${colour}.roll`, x: 16, y: y0 + 46, w: 128, h: 84, meaningY: y0 + 152, button: "roll" },
      cube: { area: `button.${colour}.cube`, x: 158, y: y0 + 46, w: 128, h: 84, meaningY: y0 + 152, button: "cube" },
      dice: { area: `dice.${colour}`, x: 304, y: y0 + 64, labelY: y0 + 48 },
      cubeBar: { area: `cube.${colour}`, x: 304, y: y0 + 108, labelY: y0 + 92, faceX: 400, faceY: y0 + 108 },
      score: { area: `score.${colour}`, x: 304, y: y0 + 152, labelY: y0 + 136, textX: V.width - 16, textY: y0 + 28 },
      clock: { area: `clock.${colour}`, x: 440, y: y0 + 108 }, // beside the cube's face
    };
    return { y0, ...(portrait ? tall : wide) };
  }

  function drawPanel(player) {
    const p = panelPlaces(player);
    const g = el("g", { class: "panel-group", "data-player": player }, layers.panels);
    p.box = el("rect", { class: "panel", x: 0, y: p.y0 + 2, width: V.width, height: V.panel - 4, rx: 6 }, g);
    const name = el("text", { class: "panel-name", x: p.name.x, y: p.name.y, id: `panel-name-${player}` }, g);
    name.textContent = COLOURS[player];
    p.turnText = el("text", { class: "turn-text", x: p.turnText.x, y: p.turnText.y }, g);
    const labels = {};
    for (const [key, text] of [["dice", "panel-dice"], ["cubeBar", "panel-cube"], ["score", "panel-score"]]) {
      labels[key] = el("text", { class: "panel-label", x: p[key].x, y: p[key].labelY }, g);
      labels[key].textContent = t(text);
    }
    // "2 moves left" after the dice's label, however long that word is in the players' language.
    const after = Math.max(portrait ? 44 : 32, labels.dice.getComputedTextLength() + 8);
    p.movesLeft = el("text", { class: "moves-left", x: p.dice.x + after, y: p.dice.labelY }, g);
    for (const key of ["roll", "cube"]) drawButton(player, p[key], g);
    p.group = el("g", {}, g); // the owned cube, the score: redrawn with the state
    panels[player] = p;
  }

  function drawButton(player, spec, parent) {
    const group = el("g", { class: "button", "data-player": player, "data-button": spec.button,
      role: "button", "aria-label": t(`button-${COLOURS[player]}-${spec.button}`) }, parent);
    const middle = spec.y + spec.h / 2;
    el("rect", { x: spec.x, y: spec.y, width: spec.w, height: spec.h, rx: 5 }, group);
    const text = el("text", { x: spec.x + (portrait ? 34 : 17), y: middle }, group);
    text.textContent = spec.button.toUpperCase();
    const keyText = el("text", { class: "key", x: spec.x + spec.w - (portrait ? 24 : 15), y: middle + 1 }, group);
    keyText.textContent = keyFor(player, spec.button);
    const meaning = el("text", { class: "meaning", x: spec.x + spec.w / 2, y: spec.meaningY,
      "data-player": player, "data-button": spec.button }, parent);
    buttons[`${player}.${spec.button}`] = { group, meaning };
    group.addEventListener("pointerdown", (event) => buttonDown(event, player, spec.button));
    for (const kind of ["pointerup", "pointerleave", "pointercancel"]) {
      group.addEventListener(kind, () => buttonUp(player, spec.button));
    }
  }

  function keyFor(player, button) {
    for (const [key, [who, which]] of Object.entries(layout.keys)) {
      if (who === player && which === button) return key === key.toLowerCase() ? key : `⇧${key}`;
    }
    return "";
  }

  // Where each pixel of the strip is: along its zone from the base, or in its area's place.
  function placeLeds() {
    leds.length = 0;
    const where = new Array(layout.length).fill(null);
    for (const [zoneText, list] of Object.entries(layout.zones)) {
      const zone = Number(zoneText);
      const g = zoneGeom(zone);
      const span = (zone > 26 ? 6 : Math.max(slots(zone), 1)) * G.P;
      const x = g.kind === "tray" ? g.x + G.TRAY / 2 - 9 : g.x;
      list.forEach((pixel, i) => {
        where[pixel] = { x, y: g.base + g.dir * (i + 0.5) * (span / list.length), r: G.R + 5, owner: zone };
      });
    }
    for (const [area, list] of Object.entries(layout.areas)) {
      list.forEach((pixel, i) => {
        where[pixel] = { ...areaPlace(area, i, list.length), owner: area, panel: area !== "cube.centre" };
      });
    }
    where.forEach((place, pixel) => {
      if (place === null) return; // an unused pixel of the strip
      const halo = el("circle", { class: "led", cx: place.x, cy: place.y, r: place.r, fill: "#000",
        opacity: 0, filter: "url(#glow)", "data-pixel": pixel, "data-owner": place.owner, "data-rgb": "0,0,0" },
        place.panel ? layers.panelHalos : layers.halos);
      const dot = el("circle", { class: "led-dot", cx: place.x, cy: place.y, r: place.small ? 3 : 3.5 },
        place.panel ? layers.dots : layers.halos);
      leds[pixel] = { halo, dot };
    });
  }

  function areaPlace(area, i, count) {
    if (area === "cube.centre") {
      // Along the bar between the two bar zones, first pixel nearest White's side.
      return { x: X.bar + G.BAR / 2 - 14, y: Y.mid + ((count - 1) / 2 - i) * 22, r: 9 };
    }
    const [kind, colour, button] = area.split(".");
    const player = colour === "white" ? WHITE : BLACK;
    const p = panelPlaces(player);
    if (kind === "button") {
      return { x: p[button].x + (portrait ? 14 : 9), y: p[button].y + p[button].h / 2, r: 9, small: true };
    }
    const key = { turn: "turn", dice: "dice", cube: "cubeBar", score: "score", clock: "clock" }[kind];
    let x = p[key].x + 5 + i * G.PITCH;
    if (kind === "dice" && i >= count / 2) x += 8; // the gap between the two dice
    return { x, y: p[key].y, r: 8, small: true };
  }

  // -- the frame ----------------------------------------------------------------------------

  // The strip gets each channel after gamma and brightness: undo both, so the page shows
  // the colour the eye sees on the LED (a dark pixel stays dark).
  function seen(value) {
    const linear = Math.min(1, value / 255 / (layout.brightness || 1));
    return Math.round(255 * Math.pow(linear, 1 / layout.gamma));
  }

  function showFrame(hex) {
    frameShown = hex;
    for (let pixel = 0; pixel < leds.length; pixel++) {
      const at = pixel * 6;
      const part = hex.slice(at, at + 6);
      if (part === pixels.slice(at, at + 6) || !leds[pixel]) continue;
      const raw = [0, 2, 4].map((k) => parseInt(part.slice(k, k + 2) || "00", 16));
      const rgb = raw.map(seen);
      const lit = Math.max(...rgb);
      const { halo, dot } = leds[pixel];
      halo.setAttribute("data-rgb", raw.join(","));
      halo.setAttribute("fill", `rgb(${rgb.join(",")})`);
      halo.setAttribute("opacity", lit ? (0.35 + 0.6 * (lit / 255)).toFixed(2) : "0");
      dot.style.fill = lit ? `rgb(${rgb.join(",")})` : "";
    }
    pixels = hex;
  }

  // -- the state ----------------------------------------------------------------------------

  function showState() {
    body.dataset.phase = state.phase;
    showStatus(state.status);
    // Redrawn only when they moved: a checker under the pointer stays the same element.
    const checkers = JSON.stringify([state.board, state.hand]);
    if (checkers !== checkersShown) {
      checkersShown = checkers;
      drawCheckers();
    }
    drawPanelsState();
    drawLastPlay();
    showMatch();
    showLog();
    showAnalysis();
    showRemote();
    showChoosing();
    showDice();
  }

  function checker(x, y, colour, attrs, parent) {
    const node = el("circle", { class: `checker ${COLOURS[colour]}`, cx: x, cy: y, r: G.R,
      "data-colour": colour, ...attrs }, parent);
    return node;
  }

  function drawCheckers() {
    const layer = layers.checkers;
    layer.textContent = "";
    for (const zone of state.board) {
      const g = zoneGeom(zone.zone);
      if (g.kind === "tray") {
        drawTray(zone, g);
        continue;
      }
      zone.slots.forEach((colour, slot) => {
        if (colour === null) return;
        checker(g.x, slotY(zone.zone, slot), colour, { "data-zone": zone.zone, "data-slot": slot }, layer);
      });
      if (!zone.unseen.length) continue;
      if (zone.askew) {
        // Knocked off their slots: lying askew beside the point, seen by no switch.
        zone.unseen.forEach((colour, i) => {
          const y = g.base + g.dir * (2 * G.P + i * 12);
          const node = checker(g.x + G.PW / 3, y, colour, { "data-zone": zone.zone, "data-askew": "true" }, layer);
          node.classList.add("askew");
        });
      } else {
        // Stacked above the slots: drawn on the first ones, with a count on the last.
        zone.unseen.forEach((colour, i) => {
          const y = slotY(zone.zone, i % Math.max(zone.slots.length, 1)) - g.dir * 5;
          checker(g.x + 3, y, colour, { "data-zone": zone.zone, "data-stacked": "true" }, layer);
        });
        const last = zone.unseen.length - 1;
        const y = slotY(zone.zone, last % Math.max(zone.slots.length, 1)) - g.dir * 5;
        stackCount(zone, g.x + 3, y, COLOURS[zone.unseen[last]], layer);
      }
    }
    drawHand(layer);
  }

  // How many checkers a stack holds: a badge on its top checker, well inside the checker
  // (and so inside its point), in the checker's opposite colour.
  function stackCount(zone, x, y, colour, layer) {
    const badge = el("g", { class: `stack-count ${colour}`, "data-zone": zone.zone }, layer);
    el("circle", { cx: x, cy: y, r: portrait ? 12 : 9.5 }, badge);
    el("text", { x, y }, badge).textContent = zone.slots.length + zone.unseen.length;
    straight(badge, x, y);
  }

  function drawTray(zone, g) {
    const all = [...zone.slots.filter((c) => c !== null), ...zone.unseen];
    all.forEach((colour, i) => {
      el("rect", { class: `slab ${COLOURS[colour]}`, x: g.x - 26, width: 44, height: 10, rx: 2,
        y: g.base + g.dir * (4 + i * 12) - (g.dir < 0 ? 10 : 0), "data-zone": zone.zone, "data-colour": colour },
        layers.checkers);
    });
  }

  // Checkers in the hand (lifted and not yet put down) wait beside the tray, to be dragged.
  function drawHand(layer) {
    const hand = state.hand.slice();
    if (drag) {
      const at = hand.findIndex(([colour]) => colour === drag.colour);
      if (at >= 0) hand.splice(at, 1);
    }
    layers.handLabel.textContent = hand.length ? t("in-hand") : "";
    hand.forEach(([colour, zone], i) => {
      const node = checker(X.tray + G.TRAY / 2 + (i % 2 ? 10 : -10), Y.mid + 14 + G.R + i * 8, colour,
        { "data-hand": "true", "data-origin": zone }, layer);
      node.classList.add("in-hand");
    });
  }

  function drawPanelsState() {
    body.dataset.turn = state.turn === null ? "" : COLOURS[state.turn];
    for (const player of [WHITE, BLACK]) {
      const p = panels[player];
      p.group.textContent = "";
      const name = document.getElementById(`panel-name-${player}`);
      name.textContent = state.names[player];
      fitText(name, p.turn.x - p.name.x - 8); // a long name (or a colour's word) before the turn light
      // Whose turn it is, in the panel's frame and in words, not only the small turn light;
      // after a double, the one who must take or drop.
      const doubled = state.phase === "doubled";
      const actor = state.turn === null || state.phase.endsWith("over") ? null : doubled ? 1 - state.turn : state.turn;
      p.box.classList.toggle("on-turn", actor === player);
      p.turnText.textContent = actor === player ? t(doubled ? "to-answer" : "to-play") : "";
      if (doubled && state.turn === player) p.turnText.textContent = t("doubles");
      p.movesLeft.textContent = state.turn === player ? movesLeft() : "";
      const score = el("text", { class: "panel-text", x: p.score.textX, y: p.score.textY }, p.group);
      score.textContent = state.length ? t("score-of", { score: state.score[player], length: state.length }) : `${state.score[player]}`;
      for (const button of ["roll", "cube"]) {
        const prompt = state.prompts.find(([who, which]) => who === player && which === button);
        buttons[`${player}.${button}`].meaning.textContent = prompt ? meaningWord(prompt[2]) : "";
      }
    }
    drawDice();
    drawCube();
  }

  // Squeeze a text into ``width`` (SVG units) where it would run past it.
  function fitText(node, width) {
    node.removeAttribute("textLength");
    node.removeAttribute("lengthAdjust");
    if (node.getComputedTextLength() > width) {
      node.setAttribute("textLength", width);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }

  // "3 moves left": while a play is being made, how many dice are still to be played.
  function movesLeft() {
    if (state.phase !== "moving" || !state.dice.length) return "";
    const left = state.dice_left.length;
    return layout.words["moves-left"][left] || `${left}`;
  }

  // The dice lie on the board, large, in the roller's right-hand half (as the player sees it
  // from their side): White's on the right, Black's on the left; the opening dice one each.
  function drawDice() {
    layers.dice.textContent = "";
    const halves = [X.right + 3 * G.PW, X.left + 3 * G.PW];
    if (state.turn !== null && state.dice.length) {
      const double = state.dice[0] === state.dice[1];
      const dice = double ? Array(4).fill(state.dice[0]) : state.dice;
      const left = state.dice_left.slice();
      const usedAll = !["moving", "confirm", "guided play", "taking back"].includes(state.phase);
      dice.forEach((value, i) => {
        const at = usedAll ? -1 : left.indexOf(value);
        if (at >= 0) left.splice(at, 1);
        const x = halves[state.turn] + (i - (dice.length - 1) / 2) * (G.DIE + 8);
        die(x, Y.mid, value, at < 0 && !usedAll ? "used" : "", state.turn);
      });
      return;
    }
    for (const player of [WHITE, BLACK]) {
      const value = state.opening[player];
      if (value !== null && value !== undefined) die(halves[player], Y.mid, value, "", player);
    }
    const throwing = state.dice_source && state.dice_source.throwing;
    if (throwing) drawThrow(throwing, halves[throwing.player]);
  }

  // GoDice awaited: the roll's dice lie blank and grey where they will be shown, and under
  // them what the table waits for ("throw the dice"), or, after a throw that did not count,
  // which die must be thrown again and why (it lies tilted, outlined in the LEDs' colour for
  // "roll again"). One group, turned upright as a whole, so the words stay under the dice.
  function drawThrow(throwing, x) {
    const again = throwing.again;
    const g = el("g", { class: `throw${again ? " again" : ""}`, "data-player": throwing.player }, layers.dice);
    for (let i = 0; i < throwing.count; i++) {
      const cx = x + (i - (throwing.count - 1) / 2) * (G.DIE + 8);
      // The opening's one die is whichever die the thrower took.
      const unfit = again && (throwing.count === 1 || again.die === i + 1);
      const face = el("g", { class: `die awaited${unfit ? " unfit" : ""}` }, g);
      if (unfit && again.why === "cocked") face.setAttribute("transform", `rotate(18 ${cx} ${Y.mid})`);
      el("rect", { x: cx - G.DIE / 2, y: Y.mid - G.DIE / 2, width: G.DIE, height: G.DIE, rx: 7 }, face);
      el("text", { x: cx, y: Y.mid }, face).textContent = "?";
    }
    const caption = el("text", { class: "throw-caption", x, y: Y.mid + G.DIE / 2 + 18 }, g);
    caption.textContent = again
      ? t(`again-${again.why}`, { die: again.die })
      : t(throwing.count === 1 ? "throw-opening" : "throw-dice");
    fitText(caption, 6 * G.PW - 8); // within the half, whatever the language's words
    straight(g, x, Y.mid);
  }

  const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
    5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

  // A die centred on (x, y), in its roller's colour; a used one greyed.
  function die(x, y, value, used, player) {
    const g = el("g", { class: `die ${COLOURS[player]}${used ? " used" : ""}`, "data-value": value,
      "data-player": player }, layers.dice);
    const side = G.DIE;
    const x0 = x - side / 2;
    const y0 = y - side / 2;
    el("rect", { x: x0, y: y0, width: side, height: side, rx: 7 }, g);
    for (const [col, row] of PIPS[value]) {
      el("circle", { cx: x0 + side * (0.22 + col * 0.28), cy: y0 + side * (0.22 + row * 0.28), r: side * 0.09 }, g);
    }
    straight(g, x, y);
  }

  function drawCube() {
    layers.cube.textContent = "";
    const cube = state.cube;
    if (!cube.available) return; // the Crawford game: no cube
    const value = cube.offered ? cube.value * 2 : cube.value === 1 ? 64 : cube.value;
    let x;
    let y;
    let parent;
    if (cube.owner === null) {
      [x, y, parent] = [X.bar + G.BAR / 2 + 14, Y.mid, layers.cube];
    } else {
      const p = panels[cube.owner];
      [x, y, parent] = [p.cubeBar.faceX, p.cubeBar.faceY, p.group];
    }
    const g = el("g", { class: `cube${cube.offered ? " offered" : ""}`, "data-value": cube.value }, parent);
    el("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: 3 }, g);
    const text = el("text", { x, y }, g);
    text.textContent = value;
    if (parent === layers.cube) straight(g, x, y);
  }

  // The zones the last play touched, outlined brightly (the LEDs' own mark is a dim glow).
  function drawLastPlay() {
    layers.marks.textContent = "";
    for (const zone of state.last_play || []) {
      const g = zoneGeom(zone);
      if (zone <= 24) {
        const tip = g.base + g.dir * (6 * G.P + 12);
        const points = `${g.x - G.PW / 2 + 2},${g.base} ${g.x + G.PW / 2 - 2},${g.base} ${g.x},${tip}`;
        el("polygon", { class: "last-play", points, "data-zone": zone }, layers.marks);
      } else {
        const far = g.base + g.dir * G.HALF;
        el("rect", { class: "last-play", x: g.x - g.w / 2 + 3, y: Math.min(g.base, far), width: g.w - 6,
          height: G.HALF, "data-zone": zone }, layers.marks);
      }
    }
  }

  // Each player's pips, counted from the checkers the page shows (a lifted one still counts
  // where it came from), so they change with every checker moved during the turn.
  function pips() {
    const total = [0, 0];
    const add = (colour, zone) => {
      if (colour !== WHITE && colour !== BLACK) return; // a checker nobody can name
      if (zone >= 27) return; // borne off
      total[colour] += zone >= 25 ? 25 : colour === WHITE ? zone : 25 - zone;
    };
    for (const zone of state.board) {
      for (const colour of [...zone.slots, ...zone.unseen]) if (colour !== null) add(colour, zone.zone);
    }
    for (const [colour, zone] of state.hand) add(colour, zone);
    return total;
  }

  function showMatch() {
    const counted = pips();
    for (const [player, colour] of [[WHITE, "white"], [BLACK, "black"]]) {
      document.getElementById(`name-${colour}`).textContent = state.names[player];
      document.getElementById(`score-${colour}`).textContent = state.score[player];
      document.getElementById(`pips-${colour}`).textContent = counted[player];
      document.getElementById(`row-${colour}`).classList.toggle("on-turn", state.turn === player);
    }
    document.getElementById("length").textContent = state.length
      ? t("length", { length: state.length }) : t("money");
    const cube = state.cube;
    let cubeText = cube.owner === null
      ? t("cube-centred", { value: cube.value })
      : t("cube-owned", { value: cube.value, name: state.names[cube.owner] });
    if (cube.offered) cubeText = t("cube-offered", { name: state.names[state.turn], value: cube.value * 2 });
    if (!cube.available) cubeText = t("crawford");
    document.getElementById("cube-text").textContent = cubeText;
    document.getElementById("position-id").textContent = state.position_id;
    document.getElementById("match-id").textContent = state.match_id;
    document.getElementById("xgid").textContent = state.xgid;
    const clock = JSON.stringify(state.clock);
    if (clock !== clockShown) {
      clockShown = clock;
      // The figures are true at clock.at on the table's clock, and the server stamps each
      // state with that clock's time as it sends it (sent): a page that connects in the
      // middle of a move counts on from where the move stands, not from its start again.
      const before = state.clock && state.clock.at !== null && typeof state.sent === "number"
        ? Math.max(0, state.sent - state.clock.at) : 0;
      clockSince = performance.now() - before * 1000;
    }
    showClock();
  }

  // The match's clock (clock_message in view.py says what each side shows): its setting,
  // and each player's time as a clock beside the board shows it. The running side is
  // counted on from when its figures were true (clock.at, as of the state's sent): first
  // what costs no reserve (the simple delay, shown beside the reserve, or the move's limit,
  // shown as the time itself), then the reserve (at once under a Bronstein delay); the last
  // seconds blink.
  let clockShown = "null";
  let clockSince = 0;
  function showClock() {
    const clock = state && state.clock;
    const box = document.getElementById("clock");
    box.hidden = !clock;
    if (!clock) return;
    document.getElementById("clock-caption").textContent = clock.caption;
    const elapsed = (performance.now() - clockSince) / 1000;
    for (const [player, colour] of [[WHITE, "white"], [BLACK, "black"]]) {
      const side = clock.players[player];
      const running = clock.running === player;
      const free = side.limit !== null ? side.limit : side.delay !== null ? side.delay : 0;
      // Paused while the board's sensors are down: the figures stand as they are.
      const spent = running && !clock.paused ? elapsed : 0;
      const freeLeft = Math.max(0, free - spent);
      const reserve = Math.max(0, side.reserve - Math.max(0, spent - free));
      const shown = document.getElementById(`clock-${colour}`);
      shown.dataset.shown = clockText(side, freeLeft, reserve);
      shown.textContent = `${state.names[player]} ${shown.dataset.shown}`;
      shown.classList.toggle("running", running && !clock.paused);
      shown.classList.toggle("paused", running && clock.paused);
      const flagIn = (side.limit !== null ? freeLeft : 0) + reserve;
      shown.classList.toggle("last-minute", running && !clock.paused && flagIn < side.low);
    }
  }

  // One side's time: the move's limit left (and any overtime's reserve after it), or the
  // reserve (or overtime) with the simple delay left beside it until it has run out.
  function clockText(side, freeLeft, reserve) {
    const reserveText = side.overtime ? t("clock-overtime", { time: minutes(reserve) }) : minutes(reserve);
    if (side.limit !== null) {
      return side.overtime || reserve > 0 ? `${minutes(freeLeft)} + ${reserveText}` : minutes(freeLeft);
    }
    if (side.delay !== null && freeLeft > 0) {
      return `${reserveText} (${t("clock-delay", { time: minutes(freeLeft) })})`;
    }
    return reserveText;
  }

  function minutes(seconds) {
    // Counted down as a clock does: 0:12 stays until the twelfth second is wholly gone.
    const whole = Math.ceil(seconds - 1e-6);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  }
  setInterval(showClock, 250);

  function showLog() {
    const text = JSON.stringify(state.log);
    if (text === logShown) return;
    logShown = text;
    const list = document.getElementById("log");
    list.textContent = "";
    for (const entry of state.log) {
      const item = document.createElement("li");
      item.className = entry.kind;
      if (entry.player !== null) {
        const chip = document.createElement("span");
        chip.className = `chip ${COLOURS[entry.player]}`;
        item.appendChild(chip);
      }
      // A roll whose play is still being made: the line waits, and says so.
      item.appendChild(document.createTextNode(entry.kind === "roll" ? `${entry.text} …` : entry.text));
      list.appendChild(item);
    }
    settleLog();
  }

  // The log's end in view under its heading, its top line whole: scrolled to the first line
  // from which the rest fit, with what room is left over kept empty after the last line (the
  // box stops only where a line begins: style.css).
  function settleLog() {
    const box = document.getElementById("log-box");
    const list = document.getElementById("log");
    list.style.paddingBottom = "";
    if (box.scrollHeight <= box.clientHeight) return;
    const heading = box.querySelector("h2").offsetHeight;
    box.style.scrollPaddingTop = `${heading}px`; // a line stops just under the heading
    const room = box.clientHeight - heading;
    const origin = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
    const at = (edge) => edge - origin; // a line's edge, in the box's scrolled content
    const end = at(list.getBoundingClientRect().bottom);
    const lines = [...list.children];
    let first = lines.length - 1;
    while (first > 0 && end - at(lines[first - 1].getBoundingClientRect().top) <= room) first--;
    const top = at(lines[first].getBoundingClientRect().top);
    list.style.paddingBottom = `${Math.max(0, room - (end - top))}px`;
    box.scrollTop = top - heading;
  }

  function showAnalysis() {
    const lines = state.analysis || [];
    document.getElementById("analysis").textContent = lines.join("\n");
    document.getElementById("analysis-box").hidden = lines.length === 0;
  }

  // A remote match (bgpi run with [remote]): its code, as text and QR code, and the link.
  function showRemote() {
    const remote = state.remote;
    document.getElementById("remote-box").hidden = !remote;
    if (!remote) return;
    document.getElementById("remote-code").textContent = remote.code;
    document.getElementById("remote-side").textContent = remote.side_words || remote.side;
    const qr = document.getElementById("remote-qr");
    const source = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(remote.qr)}`;
    if (qr.getAttribute("src") !== source) qr.src = source;
    // The state's words (translated by the server), and its key for the colour beside them.
    const line = document.getElementById("remote-state");
    line.dataset.link = remote.state;
    line.textContent = remote.reason ? `${remote.words}: ${remote.reason}` : remote.words;
  }

  // Choosing the next match: each option with its value; on the simulated board a press
  // changes one (the server presses ROLL to reach it, then CUBE), and the start button holds
  // ROLL, so the table sees only the buttons' presses. The companion shows them read-only.
  function showChoosing() {
    const choosing = state.choosing;
    document.getElementById("choose-box").hidden = !choosing;
    const text = JSON.stringify(choosing);
    if (!choosing || text === choosingShown) return;
    choosingShown = text;
    document.getElementById("choose-match").textContent = choosing.match;
    const table = document.getElementById("choose-options");
    table.textContent = "";
    for (const option of choosing.options) {
      const row = table.insertRow();
      row.dataset.option = option.option;
      row.classList.toggle("shown", option.shown);
      row.insertCell().textContent = option.label;
      const value = row.insertCell();
      value.className = "value";
      value.textContent = option.value;
      if (sim()) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = t("choose-change");
        button.setAttribute("aria-label", t("choose-change-label", { option: option.label }));
        button.addEventListener("click", () => send({ type: "option", option: option.option }));
        row.insertCell().appendChild(button);
      }
    }
  }

  // Where the dice come from, and while dice thrown by hand are entered (or GoDice are
  // awaited, which the thrower may enter by hand instead), a row of six faces per die: a tap
  // on each row enters the roll (on the simulated board, or a phone at a real one). Two taps,
  // where the buttons take four or so presses.
  const FACES = ["\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
  let diceShown = "";
  let diceChosen = [];

  function showDice() {
    const dice = state.dice_source;
    const entering = dice && (dice.entering || byHand(dice.throwing));
    document.getElementById("dice-box").hidden = !dice || (dice.source === "electronic" && !dice.why);
    if (!dice) return;
    document.getElementById("dice-source").textContent = dice.words;
    document.getElementById("dice-why").textContent = dice.why || "";
    document.getElementById("dice-by-hand").hidden = !(entering && !dice.entering);
    const text = JSON.stringify(entering);
    if (text === diceShown) return;
    diceShown = text;
    diceChosen = [];
    const faces = document.getElementById("dice-faces");
    faces.textContent = "";
    if (!entering) return;
    for (let row = 0; row < entering.count; row++) {
      const line = document.createElement("div");
      line.className = "faces";
      line.dataset.row = row;
      faces.appendChild(line);
      FACES.forEach((face, index) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = face;
        button.dataset.die = index + 1;
        button.setAttribute("aria-label", t("dice-face", { row: row + 1, value: index + 1 }));
        button.addEventListener("click", () => chooseDie(entering, row, index + 1, line, button));
        line.appendChild(button);
      });
    }
  }

  // GoDice awaited: the faces enter this roll by hand instead, as the thrower's held CUBE
  // would (offered only where the table's rows let it); keyed on the roll alone, so a
  // rethrow said meanwhile keeps the faces already tapped.
  function byHand(throwing) {
    if (!throwing || throwing.enterer === null) return null;
    return { player: throwing.player, enterer: throwing.enterer, count: throwing.count, thrown: true };
  }

  function chooseDie(entering, row, value, line, button) {
    for (const other of line.children) other.classList.toggle("chosen", other === button);
    diceChosen[row] = value;
    const chosen = diceChosen.filter((die) => die !== undefined);
    if (chosen.length === entering.count) send({ type: "enter", dice: chosen });
  }

  function showStatus(text) {
    const line = document.getElementById("status");
    if (line.textContent === text) return;
    line.textContent = text;
    fitStatus();
  }

  // A status longer than its room is set smaller until it fits: the room never grows, so the
  // board below it never moves (style.css, #status).
  function fitStatus() {
    const line = document.getElementById("status");
    line.style.fontSize = "";
    let size = parseFloat(getComputedStyle(line).fontSize);
    const least = size * 0.6;
    while (line.scrollHeight > line.clientHeight + 1 && size > least) {
      size *= 0.9;
      line.style.fontSize = `${size}px`;
    }
  }

  function showError(message) {
    const box = document.getElementById("error");
    box.textContent = message;
    box.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { box.hidden = true; }, 4000);
  }

  // -- the hands (bgpi sim) -----------------------------------------------------------------

  // The simulator's page plays the board; the companion's only enters dice thrown by hand.
  function send(message) {
    const allowed = layout && (layout.mode === "sim" || message.type === "enter");
    if (allowed && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  }

  function sim() {
    return layout && layout.mode === "sim";
  }

  function onPointerDown(event) {
    const target = event.target;
    if (!sim() || !target.classList.contains("checker") || target.classList.contains("ghost")) return;
    if (event.button !== 0) return; // right button: the contextmenu handler knocks
    event.preventDefault();
    const zone = Number(target.dataset.zone);
    const colour = Number(target.dataset.colour);
    if (target.dataset.askew) {
      send({ type: "straighten", zone });
      return;
    }
    if (event.altKey) {
      knock(target);
      return;
    }
    if (target.dataset.hand) {
      startDrag(event, colour, Number(target.dataset.origin));
      return;
    }
    send({ type: "lift", zone, colour });
    startDrag(event, colour, zone);
  }

  function startDrag(event, colour, origin) {
    const at = svgPoint(event);
    const ghost = checker(at.x, at.y, colour, {}, layers.top);
    ghost.classList.add("ghost");
    drag = { colour, origin, ghost };
    svg.setPointerCapture(event.pointerId);
  }

  function onPointerMove(event) {
    if (!drag) return;
    const at = svgPoint(event);
    drag.ghost.setAttribute("cx", at.x);
    drag.ghost.setAttribute("cy", at.y);
  }

  function onPointerUp(event) {
    if (!drag) return;
    const at = svgPoint(event);
    const zone = zoneAt(at.x, at.y);
    // Dropped off the board: the hand puts it back where it came from.
    const place = zone === null ? { zone: drag.origin } : { zone, slot: slotAt(zone, at.y) };
    send({ type: "place", colour: drag.colour, ...place });
    endDrag();
  }

  function endDrag() {
    if (!drag) return;
    drag.ghost.remove();
    drag = null;
    if (state) drawCheckers();
  }

  function knock(target) {
    const slot = target.dataset.slot === undefined ? null : Number(target.dataset.slot);
    send({ type: "knock", zone: Number(target.dataset.zone), slot });
  }

  function onContextMenu(event) {
    if (!sim()) return;
    event.preventDefault();
    // A finger held on a checker (to see where it may go) is a long press, which a phone
    // turns into a context menu: that is the hand holding it, not knocking it.
    if (drag) return;
    if (event.target.classList.contains("checker") && event.target.dataset.zone && !event.target.dataset.askew) {
      knock(event.target);
    }
  }

  function buttonDown(event, player, button) {
    if (!sim()) return;
    event.preventDefault();
    buttons[`${player}.${button}`].group.classList.add("down");
    send({ type: "press", player, button });
  }

  function buttonUp(player, button) {
    const group = buttons[`${player}.${button}`].group;
    if (!group.classList.contains("down")) return;
    group.classList.remove("down");
    send({ type: "release", player, button });
  }

  function onKeyDown(event) {
    if (!sim() || event.ctrlKey || event.metaKey || event.repeat) return;
    if (event.key === "s") {
      send({ type: "setup" });
      return;
    }
    const pair = layout.keys[event.key];
    if (!pair) return;
    event.preventDefault();
    held.set(event.code, pair);
    buttons[`${pair[0]}.${pair[1]}`].group.classList.add("down");
    send({ type: "press", player: pair[0], button: pair[1] });
  }

  function onKeyUp(event) {
    const pair = held.get(event.code);
    if (!pair) return;
    held.delete(event.code);
    buttonUp(pair[0], pair[1]);
  }

  function releaseAll() {
    for (const pair of held.values()) buttonUp(pair[0], pair[1]);
    held.clear();
  }

  // -- the words ----------------------------------------------------------------------------

  // The page's sentences come with the layout, in the players' language (bgpi/web/words.py):
  // one by its key, its {placeholders} filled in; the English key itself before they came.
  function t(key, values = {}) {
    const words = layout && layout.words ? layout.words.page[key] : undefined;
    const text = words === undefined ? key : words;
    return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  }

  function meaningWord(meaning) {
    return (layout && layout.words && layout.words.meanings[meaning]) || meaning;
  }

  // A sentence whose placeholders are elements: each {name} becomes the node nodes[name]().
  function fillNodes(element, text, nodes) {
    element.textContent = "";
    text.split(/\{(\w+)\}/).forEach((part, i) => {
      if (i % 2 === 0) element.appendChild(document.createTextNode(part));
      else element.appendChild(nodes[part] ? nodes[part]() : document.createTextNode(`{${part}}`));
    });
  }

  // The keys of the help line, as keyboard caps (Shift+R for Black's ROLL).
  function keyCaps(...names) {
    const caps = document.createDocumentFragment();
    names.forEach((name, i) => {
      if (i) caps.appendChild(document.createTextNode("+"));
      const kbd = document.createElement("kbd");
      kbd.textContent = name;
      caps.appendChild(kbd);
    });
    return caps;
  }

  function applyWords() {
    if (!layout.words) return;
    document.documentElement.lang = layout.words.language;
    for (const node of document.querySelectorAll("[data-words]")) node.textContent = t(node.dataset.words);
    for (const node of document.querySelectorAll("[data-words-label]")) {
      node.setAttribute("aria-label", t(node.dataset.wordsLabel));
    }
    for (const node of document.querySelectorAll("[data-words-alt]")) node.alt = t(node.dataset.wordsAlt);
    fillNodes(document.querySelector("[data-words=help-keys]"), t("help-keys"), {
      r: () => keyCaps("r"), c: () => keyCaps("c"), R: () => keyCaps("Shift", "R"),
      C: () => keyCaps("Shift", "C"), s: () => keyCaps("s"),
    });
    const code = document.getElementById("remote-code");
    const side = document.getElementById("remote-side");
    fillNodes(document.getElementById("remote-code-line"), t("remote-code"), { code: () => code });
    fillNodes(document.getElementById("remote-side-line"), t("remote-side"), { side: () => side });
  }

  // -- the connection -----------------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}//${location.host}/ws${query}`);
    socket.addEventListener("open", () => { body.dataset.connected = "true"; });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      body.dataset.connected = "false";
      showStatus(t("connection-lost"));
      setTimeout(connect, 1000);
    });
  }

  // A new layout, or the phone turned: everything drawn again, the last frame too.
  function rebuild() {
    pixels = "";
    checkersShown = "";
    logShown = "";
    choosingShown = "";
    build();
    if (state) showState();
    if (frameShown) showFrame(frameShown);
  }

  function receive(message) {
    if (message.type === "layout") {
      layout = message;
      body.dataset.mode = layout.mode;
      applyWords();
      window.bgpiSound.configure(layout);
      document.getElementById("mode").textContent = t(layout.mode === "sim" ? "mode-sim" : "mode-companion");
      rebuild();
    } else if (message.type === "state") {
      state = message;
      if (layout) showState();
      window.bgpiSound.hear(state);
    } else if (message.type === "frame") {
      if (layout) showFrame(message.pixels);
    } else if (message.type === "error") {
      endDrag();
      showError(message.message);
    }
  }

  // Bound to the network, the page came with its token: on the first visit, show the address
  // as a QR code for a phone; later, on request.
  function share(show) {
    const box = document.getElementById("share");
    if (show) document.getElementById("share-code").src = `qr.svg?token=${encodeURIComponent(token)}`;
    box.hidden = !show;
  }

  if (token) {
    document.getElementById("mat").href = `match.mat?token=${encodeURIComponent(token)}`;
    document.getElementById("share-toggle").hidden = false;
    document.getElementById("share-button").addEventListener("click", () => share(true));
    document.getElementById("share-close").addEventListener("click", () => share(false));
    if (!localStorage.getItem("bgpi-shared")) {
      localStorage.setItem("bgpi-shared", "yes");
      share(true);
    }
  }
  document.getElementById("choose-start").addEventListener("click", () => send({ type: "start" }));
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", () => endDrag());
  svg.addEventListener("contextmenu", onContextMenu);
  window.addEventListener("keydown", onKeyDown);
  window.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", releaseAll);
  window.addEventListener("resize", () => {
    fitStatus();
    settleLog();
  });
  upright.addEventListener("change", () => {
    portrait = upright.matches;
    if (layout) rebuild();
  });
  connect();
})();
