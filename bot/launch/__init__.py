"""The run loop that wires the surfaces together, and the HTTP server they share.

On top with the command line: it may import every room of `bot`.
"""
