// Module hooks for import-graph.mjs: reports every module URL the ESM loader loads.
let port;

export function initialize(data) {
  port = data.port;
}

export async function load(url, context, next) {
  port.postMessage(url);
  return next(url, context);
}
