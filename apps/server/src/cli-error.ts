import { OvationError } from "@ovation/core/contracts";

/** An error the CLI reports as `error: <message> (<code>)` with exit status 1 (2 for usage). */
export class CliError extends OvationError {
  override readonly name: string = "CliError";
}

/** A usage error: bad subcommand or option. */
export function usageError(message: string): CliError {
  return new CliError("OVATION_ERR_CLI_USAGE", `${message}\nRun \`ovation --help\` for usage.`);
}
