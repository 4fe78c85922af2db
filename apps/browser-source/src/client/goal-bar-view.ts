/** The goal bar fields the page draws (the `goal_bar` and `progress` of a goal bar view). */
export interface GoalBarDrawing {
  id: number;
  title: string;
  current: number;
  target: number;
  percent: number;
  ended: boolean;
  style: {
    bar_color: string;
    background_color: string;
    text_color: string;
    font_family: string;
    font_size: number;
    height: number;
    border_radius: number;
    show_values: boolean;
    show_percent: boolean;
  };
}

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function num(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}

/**
 * Reads a goal bar view (config `goal_bar`, or a `goal-bar-updated` payload) defensively: bad or
 * missing style fields fall back to defaults, colors must be hex, fonts plain names. Null when the
 * payload is not a goal bar view at all.
 */
export function readGoalBar(value: unknown): GoalBarDrawing | null {
  const view = record(value);
  const goal = record(view?.goal_bar);
  const progress = record(view?.progress);
  if (!view || !goal || !progress || typeof view.id !== "number") return null;
  const style = record(goal.style) ?? {};
  const color = (key: string, fallback: string) => (typeof style[key] === "string" && HEX.test(style[key] as string) ? (style[key] as string) : fallback);
  const font = typeof style.font_family === "string" && /^[\w\s,'"-]{1,100}$/.test(style.font_family) ? style.font_family : "Inter, sans-serif";
  return {
    id: view.id,
    title: typeof goal.title === "string" ? goal.title.slice(0, 100) : "",
    current: num(progress.current, 0, 1e12, 0),
    target: num(progress.target, 0, 1e12, 1),
    percent: num(progress.percent, 0, 100, 0),
    ended: progress.ended === true,
    style: {
      bar_color: color("bar_color", "#6c5ce7"),
      background_color: color("background_color", "#1e1e2e"),
      text_color: color("text_color", "#ffffff"),
      font_family: font,
      font_size: num(style.font_size, 8, 96, 24),
      height: num(style.height, 8, 400, 48),
      border_radius: num(style.border_radius, 0, 200, 12),
      show_values: style.show_values !== false,
      show_percent: style.show_percent !== false,
    },
  };
}

function amount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString("en-US") : value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** The label inside the bar: `12 / 50 (24 %)`, as the style asks. */
export function goalLabel(goal: GoalBarDrawing): string {
  const parts: string[] = [];
  if (goal.style.show_values) parts.push(`${amount(goal.current)} / ${amount(goal.target)}`);
  if (goal.style.show_percent) parts.push(goal.style.show_values ? `(${goal.percent} %)` : `${goal.percent} %`);
  return parts.join(" ");
}

/**
 * Draws (or redraws) the goal bar into `stage`: a title, a track and its fill, the label. Text goes
 * in through textContent and styles through the CSSOM, so nothing in a title can become markup.
 */
export function drawGoalBar(stage: HTMLElement, goal: GoalBarDrawing): void {
  const doc = stage.ownerDocument;
  let box = stage.querySelector<HTMLElement>(".ovation-goal");
  if (!box) {
    box = doc.createElement("div");
    box.className = "ovation-goal";
    for (const name of ["ovation-goal-title", "ovation-goal-track"]) {
      const part = doc.createElement("div");
      part.className = name;
      box.append(part);
    }
    const track = box.querySelector(".ovation-goal-track") as HTMLElement;
    const fill = doc.createElement("div");
    fill.className = "ovation-goal-fill";
    const label = doc.createElement("div");
    label.className = "ovation-goal-label";
    track.append(fill, label);
    stage.replaceChildren(box);
  }
  const { style } = goal;
  box.dataset.goalId = String(goal.id);
  box.dataset.current = String(goal.current);
  box.dataset.percent = String(goal.percent);
  box.dataset.ended = String(goal.ended);
  box.style.color = style.text_color;
  box.style.fontFamily = style.font_family;
  box.style.fontSize = `${style.font_size}px`;
  (box.querySelector(".ovation-goal-title") as HTMLElement).textContent = goal.title;
  const track = box.querySelector(".ovation-goal-track") as HTMLElement;
  track.style.height = `${style.height}px`;
  track.style.borderRadius = `${style.border_radius}px`;
  track.style.background = style.background_color;
  const fill = box.querySelector(".ovation-goal-fill") as HTMLElement;
  fill.style.width = `${goal.percent}%`;
  fill.style.background = style.bar_color;
  (box.querySelector(".ovation-goal-label") as HTMLElement).textContent = goalLabel(goal);
}
