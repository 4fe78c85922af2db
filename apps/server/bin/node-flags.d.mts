/** The flags to start a server process with (beside the operator's own, which are passed on as they are). */
export declare function serverNodeFlags(): string[];
