"""The bot: the platform-neutral session layer, its adapters and the `gupai` command line."""
