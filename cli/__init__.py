"""slipstream.cli"""
