"""The bot: the platform-neutral session layer, its surfaces and the `gupai` command line.

Its rooms, lowest first; each may import the rooms below it, never one beside or above it
(`tests/bot/test_rooms.py` holds them to it):

- `service`: the parts every process runs on (logs, metrics, workers and leases, shards, health,
  the HTTP guard); no other room of the bot.
- `session`, `present` and `deals`: the platform-neutral session layer, the screens it shows and
  the deals it keeps to replay; they use `service`, never a surface.
- `telegram`, `discord`, `web`, `console`: one surface each, on the session layer; never another
  surface.
- `launch` (the run loop and the HTTP server that wire the surfaces together), `commandline`
  and `cli` (the `gupai` command): on top of everything.
"""
