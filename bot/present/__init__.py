"""What the session layer shows: screens, the presenter, keyboards, payloads, the Mini App's links.

Platform-neutral like `bot.session`, whose seating and stakes it reads; it imports only
`bot.session`, `bot.service` and itself, never a surface, `bot.launch` or the command line.
"""
