"""The platform-neutral session layer: a chat's table, its requests, turns, timers and chips.

The manager and the request path, the lobby, turns and timers, seating, chips and stakes, the
commands, the chat adapter protocol every surface implements, and the outbox. It imports
`bot.present` and `bot.service`, never a surface, `bot.launch` or the command line.
"""
