"""The command line (`tabletape`): its commands, their help and what they print."""
