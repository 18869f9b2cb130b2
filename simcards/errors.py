"""The one error type for user mistakes: a bad config, ruleset, option, card, bot, path or
argument. It is a ValueError; its message names the key or value and what is allowed. The CLI
prints it and exits with status 2; any other exception is a bug and keeps its traceback."""


class UserError(ValueError):
    pass
