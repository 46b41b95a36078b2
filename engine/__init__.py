"""slipstream.engine"""
