"""Run the command line: python -m slipstream."""

from slipstream.cli.main import main

main()
