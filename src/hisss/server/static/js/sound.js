// The game's sounds, made in the browser with Web Audio (no sound files, nothing fetched): a
// card drawn, a card placed, "Hisss!" for a snake taken, a chime for "your turn" and a fanfare at
// the end. The sound switch is remembered. Each sound played is counted on the page's root
// (data-sounds, data-last-sound, data-sounds-heard), which is how the tests hear it.

import { prefs } from "./prefs.js";

let context = null;

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function tone(ctx, { freq, start = 0, length = 0.15, type = "sine", volume = 0.2, to = null }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  const at = ctx.currentTime + start;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, { start = 0, length = 0.3, volume = 0.25, from = 3000, to = 6000, q = 1 }) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = Math.random() * 2 - 1;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  const at = ctx.currentTime + start;
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + length * 0.15);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

const SOUNDS = {
  draw: (ctx) => noise(ctx, { length: 0.12, volume: 0.12, from: 1500, to: 4000, q: 0.8 }),
  place: (ctx) => tone(ctx, { freq: 220, to: 110, length: 0.12, type: "triangle", volume: 0.3 }),
  hisss: (ctx) => {
    noise(ctx, { length: 0.9, volume: 0.35, from: 4500, to: 7500, q: 2 });
    tone(ctx, { freq: 520, to: 780, start: 0.05, length: 0.25, type: "square", volume: 0.05 });
  },
  turn: (ctx) => {
    tone(ctx, { freq: 660, length: 0.18, volume: 0.18 });
    tone(ctx, { freq: 880, start: 0.16, length: 0.3, volume: 0.18 });
  },
  end: (ctx) =>
    [523, 659, 784, 1047].forEach((freq, i) =>
      tone(ctx, { freq, start: i * 0.12, length: 0.35, type: "triangle", volume: 0.18 }),
    ),
};

/** Play a sound by name, unless the sound is switched off. */
export function play(name) {
  if (!prefs.sound || !SOUNDS[name]) return;
  const root = document.documentElement;
  root.dataset.sounds = String(Number(root.dataset.sounds || 0) + 1);
  root.dataset.lastSound = name;
  const heard = new Set((root.dataset.soundsHeard || "").split(" ").filter(Boolean));
  heard.add(name);
  root.dataset.soundsHeard = [...heard].join(" ");
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    // A browser without one of the nodes: the game goes on in silence.
  }
}
