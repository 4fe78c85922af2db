/**
 * Source of the script that runs inside every sandbox isolate, after the nunjucks runtime
 * (`nunjucks-slim`, no compiler) has been loaded there. It builds the environment (Twig filters, seeded
 * `random`, template-function stubs), disables code generation from strings, freezes every object a
 * template can reach, and evaluates to the batch render function the sandbox process calls.
 *
 * It is a string (not a function turned into source) so that no build tool can inject helpers
 * into it. It must not contain backticks or `${`.
 *
 * Protocol of the batch render function `renderBatch(defsJson, itemsJson)`:
 * - defs: `[[templateId, code], ...]` compiled templates to load first (oldest evicted beyond the cap);
 * - items: `[[renderId, templateId, seed, nowMs, results, variables], ...]` where `results` holds the
 *   answers of earlier template-function calls of this render, `[[name, argsJson, value], ...]`;
 * - returns the JSON of `[[renderId, status, ...], ...]`: status 0 output, 1 template error message,
 *   2 call needed (name, argsJson), 4 function-call limit, 7 template not loaded.
 */
export const ISOLATE_BOOTSTRAP = String.raw`
(function (limits) {
  "use strict";
  var NJ = globalThis.nunjucks;
  delete globalThis.nunjucks;
  var makeFunction = Function;
  var runtime = NJ.runtime;
  var SafeString = runtime.SafeString;
  var templates = new Map();
  var state = null;
  var NEED = { need: true };

  function mulberry32(seed) {
    var a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      var t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function rand() { return state ? state.rand() : 0.5; }
  function randomInt(min, max) { return min + Math.floor(rand() * (max - min + 1)); }
  function str(v) {
    if (v === undefined || v === null) return "";
    if (v instanceof SafeString) return v.val;
    return String(v);
  }
  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof SafeString); }
  function isEmpty(v) {
    if (v === undefined || v === null || v === false || v === "") return true;
    if (Array.isArray(v)) return v.length === 0;
    if (v instanceof SafeString) return v.val === "";
    if (isObject(v)) return Object.keys(v).length === 0;
    return false;
  }
  function truthy(v) {
    if (v === undefined || v === null) return false;
    if (typeof v === "string") return v !== "" && v !== "0";
    if (typeof v === "number") return v !== 0 && v === v;
    if (typeof v === "boolean") return v;
    if (Array.isArray(v)) return v.length > 0;
    if (v instanceof SafeString) return v.val !== "" && v.val !== "0";
    if (typeof v === "object") return Object.keys(v).length > 0;
    return true;
  }
  function checkSize(n, what) {
    if (!(n <= limits.maxItems)) throw new RangeError(what + " of " + n + " items exceeds the limit of " + limits.maxItems);
  }
  function values(v) {
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    if (typeof v === "string" || v instanceof SafeString) return Array.from(str(v));
    if (typeof v === "object") return Object.keys(v).map(function (k) { return v[k]; });
    return [v];
  }
  function requireFunction(fn, filter) {
    if (typeof fn !== "function") throw new TypeError("the " + filter + " filter expects an arrow function, for example " + filter + "(v => v)");
    return fn;
  }
  function twigRange(a, b, step) {
    var s = step === undefined ? 1 : Number(step);
    if (typeof a === "string" && typeof b === "string" && a.length === 1 && b.length === 1) {
      return twigRange(a.charCodeAt(0), b.charCodeAt(0), s).map(function (c) { return String.fromCharCode(c); });
    }
    var start = Number(a), end = Number(b);
    if (!isFinite(start) || !isFinite(end) || !isFinite(s) || s === 0) throw new RangeError("range needs finite numbers and a non-zero step");
    s = Math.abs(s) * (end < start ? -1 : 1);
    checkSize(Math.floor(Math.abs(end - start) / Math.abs(s)) + 1, "range");
    var out = [];
    for (var i = start; s > 0 ? i <= end : i >= end; i += s) out.push(i);
    return out;
  }
  var regexCache = new Map();
  function twigRegex(source) {
    var cached = regexCache.get(source);
    if (cached) return cached;
    var delimiter = source.charAt(0), closing = { "(": ")", "{": "}", "[": "]", "<": ">" }[delimiter] || delimiter;
    var end = source.lastIndexOf(closing);
    if (source.length < 2 || /[a-zA-Z0-9\\\s]/.test(delimiter) || end < 1) throw new SyntaxError("matches: \"" + source.slice(0, 40) + "\" is not a /pattern/flags regular expression");
    var flags = source.slice(end + 1);
    if (!/^[imsu]*$/.test(flags)) throw new SyntaxError("matches: unsupported flags \"" + flags.slice(0, 10) + "\"");
    var regex = new RegExp(source.slice(1, end), flags);
    if (regexCache.size > 100) regexCache.clear();
    regexCache.set(source, regex);
    return regex;
  }
  function twigStringTest(op, a, b) {
    var s = str(a), t = str(b);
    if (op === "starts") return s.slice(0, t.length) === t;
    if (op === "ends") return t.length === 0 || s.slice(-t.length) === t;
    return twigRegex(t).test(s);
  }
  function njRange(start, stop, step) {
    if (stop === undefined) { stop = start; start = 0; step = 1; } else if (!step) { step = 1; }
    start = Number(start); stop = Number(stop); step = Number(step);
    if (!isFinite(start) || !isFinite(stop) || !isFinite(step) || step === 0) throw new RangeError("range needs finite numbers and a non-zero step");
    var n = Math.max(0, Math.ceil((stop - start) / step));
    checkSize(n, "range");
    var out = [];
    for (var i = 0; i < n; i++) out.push(start + i * step);
    return out;
  }
  function random(a, b) {
    if (arguments.length === 0 || a === undefined || a === null) return Math.floor(rand() * 2147483648);
    if (b !== undefined && b !== null) {
      var min = Math.ceil(Number(a)), max = Math.floor(Number(b));
      if (!isFinite(min) || !isFinite(max)) throw new TypeError("random(min, max) needs two numbers");
      if (max < min) { var t = min; min = max; max = t; }
      return randomInt(min, max);
    }
    if (Array.isArray(a) || isObject(a)) { var list = values(a); return list.length ? list[randomInt(0, list.length - 1)] : null; }
    if (typeof a === "string" || a instanceof SafeString) { var chars = Array.from(str(a)); return chars.length ? chars[randomInt(0, chars.length - 1)] : ""; }
    var n = Math.floor(Number(a));
    if (!isFinite(n)) throw new TypeError("random(n) needs a number, a string or a list");
    return n >= 0 ? randomInt(0, n) : randomInt(n, 0);
  }
  function extreme(pick, args) {
    var list = args.length === 1 ? values(args[0]) : args;
    if (!list.length) return null;
    return list.reduce(function (best, v) { return pick(v, best) ? v : best; });
  }

  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  function pad(n, w) { var s = String(n); while (s.length < w) s = "0" + s; return s; }
  function toMillis(v) {
    if (v === undefined || v === null || v === "now" || v === "") return state ? state.now : 0;
    if (typeof v === "number") return Math.abs(v) < 1e11 ? v * 1000 : v;
    var s = str(v);
    if (/^-?\d+(\.\d+)?$/.test(s)) return toMillis(Number(s));
    var ms = Date.parse(s);
    if (ms !== ms) throw new TypeError("date: cannot read \"" + s.slice(0, 40) + "\" as a date");
    return ms;
  }
  function formatDate(v, format) {
    var ms = toMillis(v);
    var d = new Date(ms);
    if (isNaN(d.getTime())) throw new RangeError("date: out of range");
    var f = format === undefined || format === null ? "F j, Y H:i" : str(format);
    var Y = d.getUTCFullYear(), m = d.getUTCMonth(), j = d.getUTCDate(), w = d.getUTCDay();
    var H = d.getUTCHours(), i = d.getUTCMinutes(), s = d.getUTCSeconds();
    var out = "";
    for (var k = 0; k < f.length; k++) {
      var c = f[k];
      switch (c) {
        case "d": out += pad(j, 2); break;
        case "j": out += j; break;
        case "D": out += DAYS[w].slice(0, 3); break;
        case "l": out += DAYS[w]; break;
        case "N": out += w === 0 ? 7 : w; break;
        case "w": out += w; break;
        case "S": out += (j % 10 === 1 && j !== 11) ? "st" : (j % 10 === 2 && j !== 12) ? "nd" : (j % 10 === 3 && j !== 13) ? "rd" : "th"; break;
        case "z": out += Math.floor((Date.UTC(Y, m, j) - Date.UTC(Y, 0, 1)) / 86400000); break;
        case "F": out += MONTHS[m]; break;
        case "M": out += MONTHS[m].slice(0, 3); break;
        case "m": out += pad(m + 1, 2); break;
        case "n": out += m + 1; break;
        case "t": out += new Date(Date.UTC(Y, m + 1, 0)).getUTCDate(); break;
        case "Y": out += Y; break;
        case "y": out += pad(Y % 100, 2); break;
        case "a": out += H < 12 ? "am" : "pm"; break;
        case "A": out += H < 12 ? "AM" : "PM"; break;
        case "g": out += (H % 12) || 12; break;
        case "G": out += H; break;
        case "h": out += pad((H % 12) || 12, 2); break;
        case "H": out += pad(H, 2); break;
        case "i": out += pad(i, 2); break;
        case "s": out += pad(s, 2); break;
        case "e": case "T": out += "UTC"; break;
        case "P": out += "+00:00"; break;
        case "O": out += "+0000"; break;
        case "U": out += Math.floor(ms / 1000); break;
        case "c": out += d.toISOString().slice(0, 19) + "+00:00"; break;
        case "\\": k++; if (k < f.length) out += f[k]; break;
        default: out += c;
      }
    }
    return out;
  }

  var filters = {
    abs: function (v) { return Math.abs(Number(v)); },
    date: formatDate,
    "default": function (v, d) { return isEmpty(v) ? (d === undefined ? "" : d) : v; },
    filter: function (v, fn) {
      requireFunction(fn, "filter");
      if (isObject(v)) {
        var out = {};
        Object.keys(v).forEach(function (k) { if (truthy(fn(v[k], k))) out[k] = v[k]; });
        return out;
      }
      return values(v).filter(function (x, k) { return truthy(fn(x, k)); });
    },
    column: function (v, name) {
      var key = str(name);
      return values(v).filter(function (x) { return x !== null && typeof x === "object" && x[key] !== undefined; }).map(function (x) { return x[key]; });
    },
    first: function (v) {
      if (typeof v === "string" || v instanceof SafeString) return Array.from(str(v))[0] || "";
      var list = values(v);
      return list.length ? list[0] : null;
    },
    format: function (v) {
      var args = Array.prototype.slice.call(arguments, 1), next = 0;
      return str(v).replace(/%(?:%|(0?)(\d{0,3})(?:\.(\d{1,2}))?([sdf]))/g, function (all, zero, width, precision, type) {
        if (all === "%%") return "%";
        var arg = args[next++];
        var out = type === "s" ? str(arg) : type === "d" ? String(Math.trunc(Number(arg)) || 0) : (Number(arg) || 0).toFixed(precision === undefined ? 6 : Number(precision));
        var w = Number(width) || 0;
        while (out.length < w) out = (zero ? "0" : " ") + out;
        return out;
      });
    },
    join: function (v, glue, and) {
      var list = values(v).map(str);
      var g = glue === undefined ? "" : str(glue);
      if (and === undefined || list.length < 2) return list.join(g);
      return list.slice(0, -1).join(g) + str(and) + list[list.length - 1];
    },
    json_encode: function (v) {
      var out = JSON.stringify(v instanceof SafeString ? v.val : v);
      return out === undefined ? "null" : out;
    },
    keys: function (v) {
      if (Array.isArray(v)) return v.map(function (_, k) { return k; });
      if (isObject(v)) return Object.keys(v);
      return [];
    },
    last: function (v) {
      if (typeof v === "string" || v instanceof SafeString) { var chars = Array.from(str(v)); return chars.length ? chars[chars.length - 1] : ""; }
      var list = values(v);
      return list.length ? list[list.length - 1] : null;
    },
    length: function (v) {
      if (v === undefined || v === null) return 0;
      if (typeof v === "string" || v instanceof SafeString) return Array.from(str(v)).length;
      if (Array.isArray(v)) return v.length;
      if (typeof v === "object") return Object.keys(v).length;
      return Array.from(String(v)).length;
    },
    lower: function (v) { return str(v).toLowerCase(); },
    map: function (v, fn) {
      requireFunction(fn, "map");
      if (isObject(v)) {
        var out = {};
        Object.keys(v).forEach(function (k) { out[k] = fn(v[k], k); });
        return out;
      }
      return values(v).map(function (x, k) { return fn(x, k); });
    },
    merge: function (a, b) {
      if (Array.isArray(a) || a === undefined || a === null) {
        var merged = values(a).concat(values(b));
        checkSize(merged.length, "merge");
        return merged;
      }
      var out = {};
      Object.keys(a).forEach(function (k) { out[k] = a[k]; });
      if (isObject(b)) Object.keys(b).forEach(function (k) { out[k] = b[k]; });
      return out;
    },
    number_format: function (v, decimals, point, thousands) {
      var n = Number(v) || 0;
      var d = decimals === undefined || decimals === null ? 0 : Math.max(0, Math.min(20, Math.trunc(Number(decimals)) || 0));
      var fixed = Math.abs(n).toFixed(d).split(".");
      fixed[0] = fixed[0].replace(/\B(?=(\d{3})+(?!\d))/g, thousands === undefined ? "," : str(thousands));
      var text = fixed.join(point === undefined ? "." : str(point));
      return (n < 0 && Number(Math.abs(n).toFixed(d)) !== 0 ? "-" : "") + text;
    },
    random: function (v) { return random(v); },
    raw: function (v) { return v; },
    reduce: function (v, fn, initial) {
      requireFunction(fn, "reduce");
      return values(v).reduce(function (carry, x, k) { return fn(carry, x, k); }, initial === undefined ? null : initial);
    },
    replace: function (v, from, to) {
      var s = str(v);
      if (isObject(from)) {
        Object.keys(from).forEach(function (k) { if (k !== "") s = s.split(k).join(str(from[k])); });
        return s;
      }
      var search = str(from);
      return search === "" ? s : s.split(search).join(str(to));
    },
    reverse: function (v) {
      if (typeof v === "string" || v instanceof SafeString) return Array.from(str(v)).reverse().join("");
      return values(v).slice().reverse();
    },
    round: function (v, precision, method) {
      var p = precision === undefined ? 0 : Math.trunc(Number(precision));
      if (!(p >= -15 && p <= 15)) throw new RangeError("round: precision must be between -15 and 15");
      var f = Math.pow(10, p), n = Number(v) * f;
      var how = method === undefined ? "common" : str(method);
      var r = how === "ceil" ? Math.ceil(n) : how === "floor" ? Math.floor(n) : (n < 0 ? -Math.round(-n) : Math.round(n));
      return r / f;
    },
    slice: function (v, start, length) {
      var isStr = typeof v === "string" || v instanceof SafeString;
      var list = isStr ? Array.from(str(v)) : values(v);
      var from = Math.trunc(Number(start) || 0);
      if (from < 0) from = Math.max(0, list.length + from);
      var to = length === undefined || length === null ? list.length : (Number(length) < 0 ? list.length + Math.trunc(Number(length)) : from + Math.trunc(Number(length)));
      var out = list.slice(from, Math.max(from, to));
      return isStr ? out.join("") : out;
    },
    sort: function (v, fn) {
      var list = values(v).slice();
      if (fn !== undefined) {
        requireFunction(fn, "sort");
        return list.sort(function (a, b) { return Number(fn(a, b)) || 0; });
      }
      return list.sort(function (a, b) {
        if (typeof a === "number" && typeof b === "number") return a - b;
        var x = str(a), y = str(b);
        return x < y ? -1 : x > y ? 1 : 0;
      });
    },
    split: function (v, delimiter, limit) {
      var s = str(v), d = str(delimiter);
      var n = limit === undefined || limit === null ? 0 : Math.trunc(Number(limit));
      var parts;
      if (d === "") {
        var chars = Array.from(s), size = n > 0 ? n : 1;
        parts = [];
        for (var i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(""));
        return parts;
      }
      parts = s.split(d);
      if (n > 0 && parts.length > n) return parts.slice(0, n - 1).concat([parts.slice(n - 1).join(d)]);
      if (n < 0) return parts.slice(0, Math.max(0, parts.length + n));
      return parts;
    },
    trim: function (v, chars, side) {
      var s = str(v);
      var set = chars === undefined || chars === null ? null : Array.from(str(chars));
      var where = side === undefined ? "both" : str(side);
      var strip = function (c) { return set ? set.indexOf(c) !== -1 : /\s/.test(c); };
      var list = Array.from(s), a = 0, b = list.length;
      if (where !== "right") while (a < b && strip(list[a])) a++;
      if (where !== "left") while (b > a && strip(list[b - 1])) b--;
      return list.slice(a, b).join("");
    },
    upper: function (v) { return str(v).toUpperCase(); },
    url_encode: function (v) {
      if (isObject(v)) return Object.keys(v).map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(str(v[k])); }).join("&");
      return encodeURIComponent(str(v));
    },
  };

  function hostFunction(name) {
    return function () {
      var s = state;
      if (!s) throw new Error(name + " is not available here");
      var args = Array.prototype.slice.call(arguments).map(function (a) { return a instanceof SafeString ? a.val : a; });
      var argsJson = JSON.stringify(args, function (k, x) { return typeof x === "function" ? null : x; });
      if (argsJson.length > limits.maxArgumentChars) throw new RangeError(name + ": arguments are longer than " + limits.maxArgumentChars + " characters");
      var index = s.calls++;
      if (index >= limits.maxCalls) { s.limitHit = true; throw new RangeError("more than " + limits.maxCalls + " template function calls"); }
      if (index < s.results.length) {
        var known = s.results[index];
        if (known[0] !== name || known[1] !== argsJson) throw new Error("template function calls changed between runs");
        return JSON.parse(JSON.stringify(known[2]));
      }
      s.need = [name, argsJson];
      throw NEED;
    };
  }

  var env = new NJ.Environment([], { autoescape: false, throwOnUndefined: false });
  Object.keys(filters).forEach(function (name) { env.addFilter(name, filters[name]); });
  env.addTest("empty", isEmpty);
  env.addGlobal("range", njRange);
  env.addGlobal("random", random);
  env.addGlobal("max", function () { return extreme(function (a, b) { return a > b; }, Array.prototype.slice.call(arguments)); });
  env.addGlobal("min", function () { return extreme(function (a, b) { return a < b; }, Array.prototype.slice.call(arguments)); });
  limits.functions.forEach(function (name) { env.addGlobal(name, hostFunction(name)); });
  runtime.twigTruthy = truthy;
  runtime.twigRange = twigRange;
  runtime.twigString = str;
  runtime.twigStringTest = twigStringTest;

  // No code from strings: every path to a Function constructor ends in a function that throws.
  var blocked = function () { throw new TypeError("code generation from strings is not available in templates"); };
  [function () {}, function* () {}, async function () {}, async function* () {}].forEach(function (f) {
    Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: blocked, writable: false, configurable: false, enumerable: false });
  });
  delete globalThis.eval;

  // Freeze everything reachable. Properties a later object may want to shadow (toString on a
  // SafeString, length, constructor...) become accessors whose setter defines an own property on the
  // receiver, so freezing a prototype does not break assignment on objects that inherit from it.
  var OVERRIDABLE = ["constructor", "toString", "valueOf", "toLocaleString", "toJSON", "length", "name", "message", "stack", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "then"];
  function allowOverride(obj) {
    OVERRIDABLE.forEach(function (key) {
      var desc = Object.getOwnPropertyDescriptor(obj, key);
      if (!desc || !("value" in desc) || !desc.writable || !desc.configurable) return;
      var value = desc.value;
      // Method shorthand: these functions have no prototype object to harden in turn.
      var pair = {
        get() { return value; },
        set(v) {
          if (this === obj) throw new TypeError("cannot assign to read only property " + key);
          Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
        },
      };
      Object.defineProperty(obj, key, { get: pair.get, set: pair.set, enumerable: desc.enumerable, configurable: false });
    });
  }
  var seen = new Set();
  function harden(root) {
    var todo = [root];
    while (todo.length) {
      var obj = todo.pop();
      if (obj === null || (typeof obj !== "object" && typeof obj !== "function") || seen.has(obj)) continue;
      seen.add(obj);
      allowOverride(obj);
      Object.freeze(obj);
      todo.push(Object.getPrototypeOf(obj));
      Reflect.ownKeys(obj).forEach(function (key) {
        var desc = Object.getOwnPropertyDescriptor(obj, key);
        if (!desc) return;
        if ("value" in desc) todo.push(desc.value);
        if (desc.get) todo.push(desc.get);
        if (desc.set) todo.push(desc.set);
      });
    }
  }
  harden(globalThis);
  harden(NJ);
  harden(env);

  function cap(text) {
    var out = text.trim();
    if (out.length > limits.outputLimit) {
      var end = limits.outputLimit;
      var code = out.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--;
      out = out.slice(0, end).trim();
    }
    return out;
  }
  function describe(error) {
    var message = error && typeof error.message === "string" ? error.message : String(error);
    message = message.replace(/\n\s*/g, " ").replace(/^\(command\)\s*/, "").replace(/^\[Line (\d+), Column (\d+)\]\s*/, "line $1, column $2: ");
    return message.length > 300 ? message.slice(0, 300) + "..." : message;
  }
  function define(id, code) {
    var props = makeFunction(code)();
    templates.delete(id);
    templates.set(id, new NJ.Template({ type: "code", obj: props }, env, "command", true));
    if (templates.size > limits.maxTemplates) templates.delete(templates.keys().next().value);
  }
  function renderOne(item) {
    var id = item[0];
    var template = templates.get(item[1]);
    if (!template) return [id, 7];
    state = { rand: mulberry32(item[2]), now: item[3], results: item[4], calls: 0, need: null, limitHit: false };
    try {
      var output = template.render(item[5]);
      if (state.need) return [id, 2, state.need[0], state.need[1]];
      return [id, 0, cap(str(output))];
    } catch (error) {
      if (state.need) return [id, 2, state.need[0], state.need[1]];
      if (state.limitHit) return [id, 4];
      return [id, 1, describe(error)];
    } finally {
      state = null;
    }
  }
  return function renderBatch(defsJson, itemsJson) {
    var defs = JSON.parse(defsJson);
    for (var d = 0; d < defs.length; d++) define(defs[d][0], defs[d][1]);
    var items = JSON.parse(itemsJson);
    var out = new Array(items.length);
    for (var i = 0; i < items.length; i++) out[i] = renderOne(items[i]);
    return JSON.stringify(out);
  };
})
`;
