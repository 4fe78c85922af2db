/** Result status codes of the sandbox protocol (see isolate-bootstrap.ts). */
export const RENDER_STATUS = {
  ok: 0,
  error: 1,
  call: 2,
  functionLimit: 4,
  timeout: 5,
  memory: 6,
  missing: 7,
} as const;
