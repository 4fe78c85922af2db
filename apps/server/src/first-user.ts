// Apart from first-run.ts, so the CLI's chat names its default user without loading the bootstrap
// (the alert catalog and the store).

/** Name of the user the first start creates, and the user `ovation chat` speaks as by default. */
export const FIRST_USER_NAME = "streamer";
