"""The Discord surface: the adapter, its slash commands, components, hands and messages.

It imports the session layer (`bot.session`, `bot.present`) and `bot.service`, never another
surface, `bot.launch` or the command line.
"""
