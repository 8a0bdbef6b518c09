"""The service parts: logs, metrics, workers and their leases, shards, health and the HTTP guard.

What every bot process runs on, whatever surfaces it serves. It imports no other room of `bot`,
only the layers below it (`storage`, `games`, `words`).
"""
