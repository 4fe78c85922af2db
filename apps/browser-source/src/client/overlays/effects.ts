import type { OverlayEffect } from "@ovation/core/overlays";

/** Colours of confetti pieces. */
const CONFETTI = ["#ff4d6d", "#ffd166", "#06d6a0", "#4cc9f0", "#9b5de5", "#f15bb5", "#ffffff"];

interface Piece {
  x: number;
  y: number;
  vx: number;
  vy: number;
  spin: number;
  angle: number;
  size: number;
  colour: string;
  /** ms after the start when the piece appears (fireworks burst in waves). */
  delay: number;
}

/** How many pieces an alert of this size throws: `size * per_amount`, kept within the effect's bounds. */
export function pieceCount(effect: OverlayEffect, size: number): number {
  const wanted = Math.round(size * effect.per_amount);
  return Math.max(effect.min_pieces, Math.min(effect.max_pieces, wanted));
}

function spawn(kind: OverlayEffect["effect"], count: number, width: number, height: number): Piece[] {
  const pieces: Piece[] = [];
  const bursts = Array.from({ length: Math.max(1, Math.min(6, Math.ceil(count / 80))) }, (_, i) => ({
    x: width * (0.2 + Math.random() * 0.6),
    y: height * (0.2 + Math.random() * 0.35),
    delay: i * 450,
  }));
  for (let i = 0; i < count; i++) {
    const colour = CONFETTI[i % CONFETTI.length] ?? "#ffffff";
    if (kind === "fireworks") {
      const burst = bursts[i % bursts.length] ?? { x: width / 2, y: height / 3, delay: 0 };
      const angle = Math.random() * Math.PI * 2;
      const speed = 120 + Math.random() * 260;
      pieces.push({ x: burst.x, y: burst.y, vx: Math.cos(angle) * speed, vy: Math.sin(angle) * speed, spin: 0, angle: 0, size: 3 + Math.random() * 3, colour, delay: burst.delay });
    } else if (kind === "confetti") {
      pieces.push({ x: Math.random() * width, y: -20 - Math.random() * height * 0.6, vx: (Math.random() - 0.5) * 120, vy: 120 + Math.random() * 220, spin: (Math.random() - 0.5) * 12, angle: Math.random() * 6, size: 8 + Math.random() * 8, colour, delay: 0 });
    } else {
      // emote-rain and hearts: larger pieces falling (hearts rise)
      const rising = kind === "hearts";
      pieces.push({
        x: Math.random() * width,
        y: rising ? height + 20 + Math.random() * height * 0.5 : -40 - Math.random() * height * 0.8,
        vx: (Math.random() - 0.5) * 60,
        vy: (rising ? -1 : 1) * (140 + Math.random() * 200),
        spin: (Math.random() - 0.5) * 2,
        angle: 0,
        size: 28 + Math.random() * 20,
        colour: rising ? "#ff4d6d" : colour,
        delay: 0,
      });
    }
  }
  return pieces;
}

function heart(ctx: CanvasRenderingContext2D, size: number): void {
  const s = size / 2;
  ctx.beginPath();
  ctx.moveTo(0, s * 0.6);
  ctx.bezierCurveTo(-s * 1.2, -s * 0.2, -s * 0.5, -s * 1.1, 0, -s * 0.45);
  ctx.bezierCurveTo(s * 0.5, -s * 1.1, s * 1.2, -s * 0.2, 0, s * 0.6);
  ctx.fill();
}

/**
 * Plays a full-screen effect on `canvas` for `durationMs` (or until `signal` aborts): confetti falling,
 * emotes raining (the `image`, when it loads; coloured drops otherwise), fireworks bursting, hearts
 * rising. Pieces are simulated per frame with the frame's real time step; the canvas is cleared at the end.
 */
export async function playEffect(
  canvas: HTMLCanvasElement,
  effect: OverlayEffect,
  size: number,
  durationMs: number,
  signal: AbortSignal,
  image: HTMLImageElement | null = null,
): Promise<number> {
  const view = canvas.ownerDocument.defaultView;
  const ctx = canvas.getContext("2d");
  if (!view || !ctx || effect.effect === "none") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, durationMs);
      signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    });
    return 0;
  }
  const width = (canvas.width = canvas.clientWidth || view.innerWidth);
  const height = (canvas.height = canvas.clientHeight || view.innerHeight);
  const count = pieceCount(effect, size);
  const pieces = spawn(effect.effect, count, width, height);
  const gravity = effect.effect === "fireworks" ? 140 : effect.effect === "hearts" ? -20 : 60;
  const start = performance.now();
  let last = start;
  await new Promise<void>((resolve) => {
    let frame = 0;
    const finish = () => {
      view.cancelAnimationFrame(frame);
      clearTimeout(safety);
      ctx.clearRect(0, 0, width, height);
      resolve();
    };
    // A hidden page gets no frames: the effect still ends on time, so the queue keeps its step.
    const safety = setTimeout(finish, durationMs + 250);
    signal.addEventListener("abort", finish, { once: true });
    const tick = (now: number) => {
      const elapsed = now - start;
      if (elapsed >= durationMs || signal.aborted) return finish();
      const dt = Math.min(0.05, (now - last) / 1000);
      last = now;
      ctx.clearRect(0, 0, width, height);
      // Fade everything out over the last 20 % of the effect.
      ctx.globalAlpha = Math.min(1, (durationMs - elapsed) / (durationMs * 0.2));
      for (const p of pieces) {
        if (elapsed < p.delay) continue;
        p.vy += gravity * dt;
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        p.angle += p.spin * dt;
        if (effect.effect === "fireworks") {
          p.vx *= 0.985;
          p.vy *= 0.985;
        }
        ctx.save();
        ctx.translate(p.x, p.y);
        ctx.rotate(p.angle);
        ctx.fillStyle = p.colour;
        if (effect.effect === "confetti") ctx.fillRect(-p.size / 2, -p.size / 4, p.size, p.size / 2);
        else if (effect.effect === "hearts") heart(ctx, p.size);
        else if (effect.effect === "emote-rain" && image && image.complete && image.naturalWidth > 0) ctx.drawImage(image, -p.size / 2, -p.size / 2, p.size, p.size);
        else {
          ctx.beginPath();
          ctx.arc(0, 0, effect.effect === "fireworks" ? p.size : p.size / 3, 0, Math.PI * 2);
          ctx.fill();
        }
        ctx.restore();
      }
      frame = view.requestAnimationFrame(tick);
    };
    frame = view.requestAnimationFrame(tick);
  });
  return count;
}
