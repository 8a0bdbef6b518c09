"""What a chat keeps of its deals: their moves, checked and stepped through again, and the
seasons and leaderboards their settlements add up to.

The move record, the check of a kept deal and its steps as people are shown them; `/top`'s
leaderboards and the seasons that end and post their podium once: platform-neutral like
`bot.session`, whose seating, stakes and turns they read. It imports only `bot.session`,
`bot.present`, `bot.service` and itself, never a surface, `bot.launch` or the command line.
"""
