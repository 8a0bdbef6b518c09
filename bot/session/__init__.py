"""The platform-neutral session layer: a chat's table, its requests, turns, timers and chips.

The manager and the request path, the lobby, turns and timers, seating, chips and stakes, the
commands, the chat adapter protocol every surface implements, the outbox, and a game as someone
watching it sees it. It imports `bot.present`, `bot.deals` and `bot.service`, never a surface,
`bot.launch` or the command line.
"""
