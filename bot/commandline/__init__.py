"""The `gupai` subcommands beside the bots: the simulator's report and workers, verify, gallery.

On top with `bot.cli`: it may import every room of `bot`.
"""
