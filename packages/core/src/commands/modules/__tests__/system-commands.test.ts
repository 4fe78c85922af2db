import { describe, expect, it } from "vitest";
import { chatEvent } from "../../__tests__/chat-events.js";
import { botCommandSchema, type BotCommand } from "../../command-record.js";
import { SystemCommands, type BotSettings } from "../system/system-commands.js";

const commands: BotCommand[] = [
  botCommandSchema.parse({ command: "hug", command_aliases: ["cuddle"], response: "hugs" }),
  botCommandSchema.parse({ command: "secret", response: "x", is_visible: false }),
  botCommandSchema.parse({ command: "so", response: "shoutout", permissions: 3 }),
];

function setup(userCommands = commands) {
  const changes: BotSettings[] = [];
  const system = new SystemCommands({ commands: () => userCommands, onChange: (_c, s) => changes.push(s) });
  return { system, changes };
}

describe("system commands", () => {
  it("!help lists visible commands and explains one", () => {
    const { system } = setup();
    expect(system.handle(chatEvent("!help"))?.reply.text).toBe("Commands: !hug, !so");
    expect(system.handle(chatEvent("!help !cuddle"))?.reply.text).toBe("!hug (also !cuddle): for everyone");
    expect(system.handle(chatEvent("!help so"))?.reply.text).toBe("!so: for moderators");
    expect(system.handle(chatEvent("!help secret"))?.reply.text).toBe("There is no command !secret.");
    expect(system.handle(chatEvent("hello"))).toBeNull();
    expect(system.handle(chatEvent("!hug"))).toBeNull();
  });

  it("!language switches the bot's own messages; only moderators may change it", () => {
    const { system, changes } = setup();
    expect(system.handle(chatEvent("!language de"))?.reply.text).toBe("Usage: !language de|en (now: en)");
    expect(system.handle(chatEvent("!language de", { badges: ["moderator"] }))?.reply.text).toBe("Ich spreche jetzt Deutsch.");
    expect(system.handle(chatEvent("!help"))?.reply.text).toBe("Befehle: !hug, !so");
    expect(system.handle(chatEvent("!help so"))?.reply.text).toBe("!so: für Moderatoren");
    expect(changes.map((c) => c.language)).toEqual(["de"]);
  });

  it("!visuals, !effects and !sounds toggle the overlay switches", () => {
    const { system, changes } = setup();
    expect(system.handle(chatEvent("!sounds off", { badges: ["moderator"] }))?.reply.text).toBe("Sounds are off now.");
    expect(system.handle(chatEvent("!sounds"))?.reply.text).toBe("Usage: !sounds on|off (now: off)");
    expect(system.handle(chatEvent("!visuals off", { badges: ["vip"] }))?.changed).toBeNull();
    expect(system.handle(chatEvent("!effects off", { badges: ["broadcaster"] }))?.changed).toMatchObject({ effects: false, sounds: false, visuals: true });
    expect(changes).toHaveLength(2);
  });

  it("a command switched off gets no answer; the others still answer and its setting stays", () => {
    const { system, changes } = setup();
    system.update("chan-1", { disabled_commands: ["sounds", "help"] });
    expect(system.handle(chatEvent("!help"))).toBeNull();
    expect(system.handle(chatEvent("!sounds off", { badges: ["moderator"] }))).toBeNull();
    expect(system.settings("chan-1")).toMatchObject({ sounds: true, disabled_commands: ["sounds", "help"] });
    expect(system.handle(chatEvent("!effects off", { badges: ["moderator"] }))?.changed).toMatchObject({ effects: false, disabled_commands: ["sounds", "help"] });
    expect(changes).toHaveLength(2);
    // A stored name that is not a system command is refused, not kept.
    expect(() => system.update("chan-1", { disabled_commands: ["dance" as "help"] })).toThrow();
    expect(system.restore("chan-1", { disabled_commands: ["dance"], language: "de" })).toMatchObject({ language: "en", disabled_commands: [] });
  });

  it("each command's level: !help below it gets no answer, a switch below it only shows its state", () => {
    const { system, changes } = setup();
    system.update("chan-1", { levels: { help: "subscriber", language: "moderator", visuals: "broadcaster", effects: "moderator", sounds: "everyone" } });
    expect(system.handle(chatEvent("!help"))).toBeNull();
    expect(system.handle(chatEvent("!help", { badges: ["subscriber"] }))?.reply.text).toBe("Commands: !hug, !so");
    expect(system.handle(chatEvent("!visuals off", { badges: ["moderator"] }))).toMatchObject({ changed: null, reply: { text: "Usage: !visuals on|off (now: on)" } });
    expect(system.handle(chatEvent("!visuals off", { badges: ["broadcaster"] }))?.changed).toMatchObject({ visuals: false });
    expect(system.handle(chatEvent("!sounds off"))?.changed).toMatchObject({ sounds: false });
    expect(changes.map((c) => c.levels.help)).toEqual(["subscriber", "subscriber", "subscriber"]);
  });

  it("levels default per command, keep the others when one is given, and refuse an unknown level or command", () => {
    const { system } = setup();
    expect(system.settings("chan-1").levels).toEqual({ help: "everyone", language: "moderator", visuals: "moderator", effects: "moderator", sounds: "moderator" });
    expect(system.update("chan-1", { levels: { help: "vip" } as BotSettings["levels"] }).levels).toMatchObject({ help: "vip", sounds: "moderator" });
    expect(() => system.update("chan-1", { levels: { help: "admin" } as unknown as BotSettings["levels"] })).toThrow();
    expect(() => system.update("chan-1", { levels: { dance: "everyone" } as unknown as BotSettings["levels"] })).toThrow();
    // Settings stored before levels existed read with the defaults.
    expect(system.restore("chan-2", { language: "de" }).levels.language).toBe("moderator");
  });

  it("a user command of the same name wins", () => {
    const { system } = setup([botCommandSchema.parse({ command: "help", response: "my own help" })]);
    expect(system.handle(chatEvent("!help"))).toBeNull();
  });
});
