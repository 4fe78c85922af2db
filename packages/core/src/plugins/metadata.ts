import { z } from "zod";
import { PLATFORM_ID_PATTERN } from "../platforms.js";
import { isAlertType } from "../alerts/catalog.js";
import { SEND_AS } from "./contract.js";
import type { PlatformPlugin, PluginCapabilities, PluginMetadata } from "./contract.js";
import { PLUGIN_ERROR_CODES, PluginError } from "./plugin-errors.js";
import { platformDeclarationSchema } from "../alerts/platform-declaration.js";
import { coreSatisfies, isValidCoreRange, isValidVersion } from "./version.js";

/** zod schema of {@link PluginMetadata}. */
export const pluginMetadataSchema = z.object({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "must be 1-64 characters of a-z, 0-9 and '-', starting with a letter or digit"),
  platform: z.string().regex(PLATFORM_ID_PATTERN, "must be 1-32 characters of a-z, 0-9, '_' and '-'"),
  version: z.string().refine(isValidVersion, "must be a semver version such as 1.2.3"),
  core: z.string().refine(isValidCoreRange, "must be a semver range such as ^0.1.0"),
  description: z.string().max(200).optional(),
});

/** zod schema of {@link PluginCapabilities}. */
export const pluginCapabilitiesSchema = z.object({
  send: z
    .array(z.enum(SEND_AS))
    .refine((modes) => modes.length === 0 || modes.includes("say"), "must include 'say' (or be empty for a read-only plugin)"),
  moderation: z.object({ deleteMessage: z.boolean(), timeout: z.boolean(), ban: z.boolean().default(false) }),
});

/** Formats zod issues as `path: message` lines, naming what is wrong. */
export function formatIssues(error: z.ZodError, prefix: string): string {
  return error.issues
    .map((issue) => `${[prefix, ...issue.path.map(String)].join(".")}: ${issue.message}`)
    .join("; ");
}

/**
 * Checks a plugin before registration: metadata and capabilities against their schemas, the core
 * version range against `coreVersion`, that declared moderation capabilities have their methods, and
 * the optional platform declaration (display name, catalog alert types with parameters and default texts).
 * Throws a {@link PluginError} listing every problem; returns the parsed metadata otherwise.
 */
export function checkPlugin(plugin: PlatformPlugin, coreVersion: string): { metadata: PluginMetadata; capabilities: PluginCapabilities } {
  const problems: string[] = [];
  const metadata = pluginMetadataSchema.safeParse(plugin.metadata);
  if (!metadata.success) problems.push(formatIssues(metadata.error, "metadata"));
  const capabilities = pluginCapabilitiesSchema.safeParse(plugin.capabilities);
  if (!capabilities.success) problems.push(formatIssues(capabilities.error, "capabilities"));
  for (const method of ["channels", "connect", "disconnect", "send"] as const) {
    if (typeof plugin[method] !== "function") problems.push(`${method}: must be a function`);
  }
  if (plugin.platform !== undefined) {
    const declaration = platformDeclarationSchema.safeParse(plugin.platform);
    if (!declaration.success) problems.push(formatIssues(declaration.error, "platform"));
    else {
      const unknown = (declaration.data.alerts ?? []).map((a) => a.type).filter((type) => !isAlertType(type));
      if (unknown.length > 0) problems.push(`platform.alerts: ${unknown.join(", ")} ${unknown.length > 1 ? "are not alert types" : "is not an alert type"} of the catalog`);
    }
  }
  if (capabilities.success) {
    for (const method of ["deleteMessage", "timeout", "ban"] as const) {
      if (capabilities.data.moderation[method] && typeof plugin[method] !== "function") {
        problems.push(`${method}: capabilities.moderation.${method} is true but the method is missing`);
      }
    }
  }
  const name = typeof plugin.metadata?.name === "string" ? plugin.metadata.name : "(unnamed)";
  if (problems.length > 0 || !metadata.success || !capabilities.success) {
    throw new PluginError(PLUGIN_ERROR_CODES.metadataInvalid, `Plugin ${name} is invalid: ${problems.join("; ")}`, {
      details: { plugin: name, problems },
    });
  }
  if (!coreSatisfies(coreVersion, metadata.data.core)) {
    throw new PluginError(
      PLUGIN_ERROR_CODES.coreVersion,
      `Plugin ${name} needs @ovation/core ${metadata.data.core}, but this is ${coreVersion}`,
      { details: { plugin: name, range: metadata.data.core, core: coreVersion } },
    );
  }
  return { metadata: metadata.data, capabilities: capabilities.data };
}
