"""A deal's moves as the session layer keeps them, and the deal checked and stepped through again.

The move record, the check of a kept deal and its steps as people are shown them: platform-neutral
like `bot.session`, whose seating and stakes they read. It imports only `bot.session`,
`bot.present`, `bot.service` and itself, never a surface, `bot.launch` or the command line.
"""
