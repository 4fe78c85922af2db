import { afterAll, describe, expect, it } from "vitest";
import { TemplateSandbox } from "../template-sandbox.js";
import { CORPUS_TIMEOUT_MS, recordingFunctions, variables } from "./template-test-kit.js";

describe("Twig filters, functions and operators in the sandbox", () => {
  // What the templates answer is under test here, not the clock: a time limit a loaded CI machine cannot hit.
  const sandbox = new TemplateSandbox({ timeoutMs: CORPUS_TIMEOUT_MS });
  afterAll(() => sandbox.close());
  const render = (source: string, args: string[] = ["!cmd", "a", "b"]) =>
    sandbox.render(sandbox.compile(source), variables(args, ["subscriber", "vip"]), recordingFunctions());

  const cases: Array<[string, string]> = [
    ["{{ 'Ab'|length }} {{ [1, 2, 3]|length }} {{ {'a': 1}|length }} {{ missing|length }}", "2 3 1 0"],
    ["{{ 'Hello'|upper }} {{ 'Hello'|lower }}", "HELLO hello"],
    ["{{ [1, 2, 3]|join(', ') }} / {{ [1, 2, 3]|join(', ', ' and ') }}", "1, 2, 3 / 1, 2 and 3"],
    ["{{ [4, 5]|first }} {{ [4, 5]|last }} {{ 'xyz'|first }} {{ 'xyz'|last }}", "4 5 x z"],
    ["{{ missing|default('none') }} {{ ''|default('empty') }} {{ []|default('no list') }} {{ 0|default('zero') }}", "none empty no list 0"],
    ["{{ 3.14159|round(2) }} {{ 2.5|round }} {{ 2.1|round(0, 'ceil') }} {{ 2.9|round(0, 'floor') }}", "3.14 3 3 2"],
    ["{{ (-5)|abs }} {{ -5|abs }}", "5 -5"],
    ["[{{ '  x  '|trim }}] [{{ '--x--'|trim('-') }}] [{{ '--x--'|trim('-', 'left') }}]", "[x] [x] [x--]"],
    ["{{ 'I like cats'|replace({'cats': 'dogs', 'I': 'We'}) }} {{ 'a-b'|replace('-', '+') }}", "We like dogs a+b"],
    ["{{ 'a,b,c'|split(',')|join('|') }} {{ 'a,b,c'|split(',', 2)|last }} {{ 'abcd'|split('', 2)|join(' ') }}", "a|b|c b,c ab cd"],
    ["{{ [1, 2, 3, 4]|slice(1, 2)|join }} {{ 'hello'|slice(-3) }} {{ 'hello'|slice(0, -1) }}", "23 llo hell"],
    ["{{ {'b': 1, 'a': 2}|keys|join }} {{ [7, 8]|keys|join }}", "ba 01"],
    ["{{ [3, 1, 10, 2]|sort|join(',') }} {{ ['b', 'a']|sort|join }} {{ [1, 3, 2]|sort((a, b) => b - a)|join }}", "1,2,3,10 ab 321"],
    ["{{ [1, 2, 3]|reverse|join }} {{ 'abc'|reverse }}", "321 cba"],
    ["{{ 1700000000|date('Y-m-d H:i:s') }} {{ 1700000000000|date('D, d M Y') }} {{ '2024-02-29T12:00:00Z'|date('l jS F y') }}", "2023-11-14 22:13:20 Tue, 14 Nov 2023 Thursday 29th February 24"],
    ["{{ [1, 2, 3, 4]|filter(n => n % 2 == 0)|join }} {{ [1, 2]|map(n => n * 10)|join(',') }} {{ [1, 2, 3]|reduce((c, n) => c + n, 10) }}", "24 10,20 16"],
    ["{{ event.user.badges|map(b => b.type)|join(' ') }}", "subscriber vip"],
    ["{{ {'a': 1, 'b': 2}|filter((v, k) => k == 'b')|keys|join }}", "b"],
    ["{{ [1]|merge([2, 3])|join }}", "123"],
    ["{{ 'a' ~ 1 ~ true }}", "a11"],
    ["{% if 0 %}x{% elseif '0' %}y{% elseif [] %}z{% elseif {} %}w{% else %}falsy{% endif %}", "falsy"],
    ["{% if not [] and ([1] or false) %}ok{% endif %}", "ok"],
    ["{% for i in 1..4 %}{{ i }}{% endfor %} {% for c in 'a'..'c' %}{{ c }}{% endfor %} {% for i in 3..1 %}{{ i }}{% endfor %}", "1234 abc 321"],
    ["{% for i in [] %}x{% else %}empty{% endfor %}", "empty"],
    ["{{ args[1] }}{{ args[2] }} {{ args|length }} {{ irc.channel }} {{ command.command }}", "ab 3 #streamer cmd"],
    ["{{ max(3, 9, 4) }} {{ min([5, 2, 8]) }}", "9 2"],
    ["{% if [] is empty and 'x' is not empty %}empty works{% endif %}", "empty works"],
    ["{% set n = random(5) %}{% if n >= 0 and n <= 5 %}ok{% endif %} {{ random('a') }}", "ok a"],
    ["{% macro greet(name) %}Hi {{ name }}{% endmacro %}{{ greet('you') }}", "Hi you"],
    ["   padded   ", "padded"],
    ["{% if '@alice' starts with '@' %}{{ '@alice'|slice(1) }}{% endif %} {{ 'file.txt' ends with '.txt' }} {{ 'abc' starts with 'b' }}", "alice 1"],
    // nunjucks' list filters take the values of the hash Twig's `filter` gives when it drops a leading item.
    ["{{ [1, 5, 3, 7]|filter(v => v > 3)|sum }} {{ [{a: 1}, {a: 5}]|filter(v => v.a > 3)|selectattr('a')|length }} {{ [0, 1, 2]|filter(v => v > 0)|reject('odd')|join }}", "12 1 2"],
    ["{{ '12345' matches '/^\\\\d+$/' }} {{ 'Hello' matches '{^hello$}i' }} {{ 'x' matches '/y/' }}", "1 1 0"],
    ["{{ args[5] ?? 'nobody' }} {{ args[1] ?? 'nobody' }} {{ missing ?? other ?? 'last' }} {{ args[9]??'tight' }}", "nobody a last tight"],
    ["{{ args[1] ? 'yes' : 'no' }} {{ [] ? 'yes' : 'no' }} {{ args[1]?'t':'f' }} {{ 0 ? 1 : 2 ? 3 : 4 }}", "yes no t 3"],
    ["{{ '' ?: 'fallback' }} {{ args[2] ?: 'fallback' }}", "fallback b"],
    ["{% set who = args[1] ?? event.user.username %}{{ who ~ '!' }}", "a!"],
    ["{{ '%s has %d points (%.1f%%) [%03d]'|format('alice', 42.9, 12.345, 7) }}", "alice has 42 points (12.3%) [007]"],
    ["{{ 1234567.891|number_format(2) }} {{ (-1234.5)|number_format(1, ',', '.') }} {{ 999|number_format }}", "1,234,567.89 -1.234,5 999"],
    ["{{ 'a b&c'|url_encode }} {{ {'q': 'x y', 'n': 1}|url_encode }}", "a%20b%26c q=x%20y&n=1"],
    ["{{ event.user.badges|column('type')|join(',') }} {{ {'a': [1, 'x']}|json_encode }} {{ 'x'|raw }}", 'subscriber,vip {"a":[1,"x"]} x'],
  ];

  for (const [source, expected] of cases) {
    it(`renders ${source}`, async () => {
      expect(await render(source)).toBe(expected);
    });
  }

  it("reports calling a filter with something that is not an arrow function", async () => {
    await expect(render("{{ [1]|filter('system') }}")).rejects.toMatchObject({
      code: "OVATION_ERR_TEMPLATE_RUNTIME",
      message: expect.stringContaining("expects an arrow function"),
    });
  });

  it("renders the current date through 'now'", async () => {
    expect(await render("{{ 'now'|date('Y') }}")).toBe(String(new Date().getUTCFullYear()));
  });
});
