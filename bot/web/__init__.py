"""The web table, the Telegram Mini App's page: its handlers, sign-in, event streams, static files.

The page itself is in `static/`. It imports the session layer (`bot.session`, `bot.present`) and
`bot.service`, never another surface, `bot.launch` or the command line.
"""
