"""The HTTP service and the CLI."""
