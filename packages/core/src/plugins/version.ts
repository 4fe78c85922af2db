import semver from "semver";

/** The version of @ovation/core that plugins declare compatibility with (kept equal to package.json). */
export const CORE_VERSION = "0.1.0";

/** True when `range` is a valid semver range. */
export function isValidCoreRange(range: string): boolean {
  return semver.validRange(range) !== null;
}

/**
 * True when `version` lies in the semver `range`. Pre-releases of the core are included, so a plugin
 * declaring `^0.1.0` loads on `0.1.1-rc.1`.
 */
export function coreSatisfies(version: string, range: string): boolean {
  return semver.satisfies(version, range, { includePrerelease: true });
}

/** True when `version` is a valid semver version. */
export function isValidVersion(version: string): boolean {
  return semver.valid(version) !== null;
}
