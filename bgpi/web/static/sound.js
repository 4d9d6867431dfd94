// The table's cues heard in the page: the dice, a hit, "your turn", a refused move.
// Synthesised with WebAudio from the tunes the layout message carries (the very notes the
// board's buzzer plays), so there is no sound file to fetch. Browsers allow sound only after
// the user has touched the page, so the audio starts at the first press, click or key; a cue
// that comes before is let pass (a late cue says nothing). The switch in the header mutes it,
// and the page remembers the choice.
//
// app.js calls configure(layout) on each layout and hear(state) on each state. What is
// played or let pass is kept in window.bgpiSound, which the browser tests read.
"use strict";

(() => {
  const STORED = "bgpi-sound";
  const VOLUME = 0.06; // a square wave is loud: this is about a buzzer across the table
  const sound = {
    enabled: false,
    tunes: {},
    labels: { on: "Sound on", off: "Sound off" },
    context: null,
    busyUntil: 0, // when the last scheduled note ends, in the context's time
    heardUpTo: null, // the number of the last cue this page has taken (played or not)
    played: [], // { cue, at, notes }: each tune scheduled
    passed: [], // { cue, why }: each cue not played, and why
  };
  window.bgpiSound = sound;
  const toggle = document.getElementById("sound-toggle");

  function showToggle() {
    toggle.textContent = sound.enabled ? sound.labels.on : sound.labels.off;
    toggle.setAttribute("aria-pressed", String(sound.enabled));
    document.body.dataset.sound = sound.enabled ? "on" : "off";
  }

  function configure(layout) {
    const given = layout.sound || {};
    sound.tunes = given.tunes || {};
    sound.labels = given.labels || sound.labels;
    const stored = localStorage.getItem(STORED);
    sound.enabled = stored === null ? Boolean(given.enabled) : stored === "on";
    toggle.hidden = false;
    showToggle();
  }

  // Called from a user's gesture: the only moment a browser lets audio start.
  function wake() {
    if (!sound.enabled) return;
    if (sound.context === null) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      sound.context = new Context();
    }
    if (sound.context.state === "suspended") sound.context.resume();
  }

  function schedule(cue) {
    const context = sound.context;
    const notes = sound.tunes[cue] || [];
    let at = Math.max(context.currentTime + 0.01, sound.busyUntil);
    const start = at;
    for (const [hz, seconds] of notes) {
      if (hz > 0) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = "square";
        oscillator.frequency.value = hz;
        gain.gain.value = VOLUME;
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(at);
        oscillator.stop(at + seconds);
      }
      at += seconds;
    }
    sound.busyUntil = at;
    sound.played.push({ cue, at: start, notes });
  }

  function play(cue) {
    if (!sound.enabled) {
      sound.passed.push({ cue, why: "muted" });
    } else if (sound.context === null || sound.context.state !== "running") {
      sound.passed.push({ cue, why: "no interaction yet" });
    } else {
      schedule(cue);
    }
  }

  function hear(state) {
    const cues = state.cues || [];
    const last = cues.length ? cues[cues.length - 1][0] : 0;
    // A page that just connected, or a server started afresh: what came before is history.
    if (sound.heardUpTo === null || last < sound.heardUpTo) {
      sound.heardUpTo = last;
      return;
    }
    for (const [number, cue] of cues) {
      if (number > sound.heardUpTo) play(cue);
    }
    sound.heardUpTo = last;
  }

  toggle.addEventListener("click", () => {
    sound.enabled = !sound.enabled;
    localStorage.setItem(STORED, sound.enabled ? "on" : "off");
    showToggle();
    wake();
  });
  for (const kind of ["pointerdown", "keydown"]) {
    window.addEventListener(kind, wake, { capture: true });
  }
  sound.configure = configure;
  sound.hear = hear;
})();
