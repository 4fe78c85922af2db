// The timers' API schema lives beside their routes (commands/modules/timers/timer-routes.ts).
export { timerViewSchema } from "../commands/modules/timers/timer-routes.js";
