/** A command line that cannot be run as written: exit 2, with a message a person can act on. */
export class UsageError extends Error {}
