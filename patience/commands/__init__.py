"""One module per `patience` subcommand, each with `register(subparsers)`."""
