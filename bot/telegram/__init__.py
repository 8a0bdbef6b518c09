"""The Telegram surface: the adapter, its messages and the webhook's HTTP details.

It imports the session layer (`bot.session`, `bot.present`) and `bot.service`, never another
surface, `bot.launch` or the command line.
"""
