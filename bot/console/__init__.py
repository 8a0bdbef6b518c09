"""The terminal surface: `gupai play`, its options, start, input and text.

It imports the session layer (`bot.session`, `bot.present`) and `bot.service`, never another
surface, `bot.launch` or the command line.
"""
